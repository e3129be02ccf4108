import fs from 'node:fs/promises';

/**
 * TCP connections on `port` still held by a process (Linux: /proc/net/tcp{,6}, rows with a socket inode).
 * A connection in its close handshake stays attached until the server has read the peer's close; a
 * process that exits before that closes it with unread bytes, which the kernel turns into a reset that can
 * destroy what the peer had not yet read (the last events and the close frame). Null where unknown.
 */
export async function heldConnections(port: number): Promise<number | null> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  let tables: string[];
  try {
    tables = await Promise.all(['/proc/net/tcp', '/proc/net/tcp6'].map((f) => fs.readFile(f, 'utf8').catch(() => '')));
  } catch {
    return null;
  }
  if (tables.every((t) => t === '')) return null;
  let held = 0;
  for (const table of tables) {
    for (const line of table.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is ADDR:PORT, st 0A is LISTEN, an inode of 0 is a connection no process holds any more.
      if (cols.length < 10 || !cols[1]!.endsWith(`:${hexPort}`) || cols[3] === '0A' || cols[9] === '0') continue;
      held++;
    }
  }
  return held;
}

/**
 * Keeps the process (and so the socket loop) running until no connection on `port` is held any more, at
 * most `maxMs`: the sockets' queued bytes are sent and their close handshakes complete before it exits.
 */
export async function lingerForConnections(port: number, maxMs: number, pollMs = 25): Promise<number> {
  const until = Date.now() + maxMs;
  for (;;) {
    const held = await heldConnections(port);
    if (held === 0) return 0;
    if (Date.now() >= until) return held ?? -1;
    await new Promise((r) => setTimeout(r, held === null ? Math.min(maxMs, 250) : pollMs));
    if (held === null) return -1;
  }
}
