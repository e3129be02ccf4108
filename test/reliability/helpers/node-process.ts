import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** A node running as its own process (`voice serve` from the sources), as a deployment runs it. */
export interface NodeProcess {
  /** `http://127.0.0.1:PORT` */
  url: string;
  wsUrl: string;
  port: number;
  metricsPort: number;
  sipPort: number;
  nodeId: string;
  dataDir: string;
  child: ChildProcess;
  /** Everything the node wrote to stdout (JSON log lines) and stderr. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM and wait for the exit (the node drains first). */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL: no drain, nothing written. */
  kill(): Promise<void>;
}

/** A free TCP port on 127.0.0.1, found by binding port 0 and letting it go. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'voice-rel-'));
}

export function testKey(prefix = 'rel'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

export interface SpawnOptions {
  dataDir: string;
  nodeId?: string;
  /** Extra or overriding VOICE_* variables. */
  env?: Record<string, string>;
  /** Ports to use (a restarted node keeps its own); fresh free ones otherwise. */
  port?: number;
  metricsPort?: number;
  sipPort?: number;
  /** Return at once instead of waiting until the node serves (a node expected to refuse to start). */
  noWait?: boolean;
}

/** Starts `voice serve` from the TypeScript sources and waits until it answers on its port. */
export async function spawnNode(opts: SpawnOptions): Promise<NodeProcess> {
  const port = opts.port ?? (await freePort());
  const metricsPort = opts.metricsPort ?? (await freePort());
  const sipPort = opts.sipPort ?? 0;
  const nodeId = opts.nodeId ?? `node-${port}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? os.tmpdir(),
    VOICE_HOST: '127.0.0.1',
    VOICE_PORT: String(port),
    VOICE_METRICS_PORT: String(metricsPort),
    VOICE_SIP_HOST: '127.0.0.1',
    VOICE_SIP_PORT: String(sipPort),
    VOICE_SIP_RTP_PORTS: '0',
    VOICE_DATA_DIR: opts.dataDir,
    VOICE_NODE_ID: nodeId,
    VOICE_STT: 'none',
    VOICE_LLM: 'local',
    VOICE_TTS: 'none',
    VOICE_DRAIN_SECONDS: '10',
    VOICE_RATE_LIMIT: '100000',
    VOICE_LOG_LEVEL: 'info',
    ...opts.env,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  const node: NodeProcess = {
    url,
    wsUrl: `ws://127.0.0.1:${port}`,
    port,
    metricsPort,
    sipPort,
    nodeId,
    dataDir: opts.dataDir,
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  if (opts.noWait) return node;
  const deadline = Date.now() + 30_000;
  let gone = false;
  void exited.then(() => (gone = true));
  while (!err.includes('voice: serving')) {
    if (gone) throw new Error(`node exited before serving:\n${err}\n${out.slice(-2000)}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`node did not start within 30 s:\n${err}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return node;
}

/** True when the node answers its unauthenticated health check. */
export async function alive(node: NodeProcess): Promise<boolean> {
  if (node.child.exitCode !== null || node.child.signalCode !== null) return false;
  try {
    const res = await fetch(`${node.url}/voice/capabilities`, { signal: AbortSignal.timeout(5000) });
    return res.status === 200 && ((await res.json()) as { status?: string }).status === 'success';
  } catch {
    return false;
  }
}

/** The node's `voice_live_sessions` gauge, read from its metrics listener. */
export async function liveSessions(node: NodeProcess): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${node.metricsPort}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    const m = /^voice_live_sessions(?:\{[^}]*\})? (\S+)$/.exec(line);
    if (m) total += Number(m[1]);
  }
  return total;
}

/** Waits until the live-session gauge reads 0 (sessions end asynchronously after their sockets close). */
export async function waitNoLiveSessions(node: NodeProcess, ms = 15_000): Promise<number> {
  const t0 = Date.now();
  let n = await liveSessions(node);
  while (n !== 0 && Date.now() - t0 < ms) {
    await new Promise((r) => setTimeout(r, 100));
    n = await liveSessions(node);
  }
  return n;
}

/** Runs an async check until it holds or the time is up. */
export async function eventually<T>(fn: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() - t0 > ms) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Reads the embedded store's session rows directly (read-only), for checks the API does not expose. */
export async function storedSessions(
  dataDir: string,
): Promise<Array<{ state: string; node_id: string | null; doc: Record<string, unknown> }>> {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path.join(dataDir, 'voice.db'), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT state, node_id, doc FROM sessions').all() as Array<{
      state: string;
      node_id: string | null;
      doc: string;
    }>;
    return rows.map((r) => ({ state: r.state, node_id: r.node_id, doc: JSON.parse(r.doc) as Record<string, unknown> }));
  } finally {
    db.close();
  }
}

/** A key's balance, read straight from the embedded store (by its label). */
export async function balanceOf(dataDir: string, label: string): Promise<number> {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path.join(dataDir, 'voice.db'), { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('SELECT credits FROM keys WHERE label = ?').get(label) as { credits: number } | undefined;
    if (!row) throw new Error(`no key labelled ${label}`);
    return row.credits;
  } finally {
    db.close();
  }
}
