/*
 * A node run as its own process (`node --import tsx src/main.ts serve`), configured only through its
 * environment, the way an operator runs it. Used where the test must control process-wide settings such
 * as the trusted CA bundle.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface NodeProcess {
  url: string;
  wsUrl: string;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export async function startNodeProcess(env: Record<string, string>): Promise<NodeProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-conf-'));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: {
      ...process.env,
      VOICE_HOST: '127.0.0.1',
      VOICE_PORT: String(port),
      VOICE_DATA_DIR: dataDir,
      VOICE_SIP_PORT: '0',
      VOICE_STT: 'none',
      VOICE_LLM: 'local',
      VOICE_RATE_LIMIT: '100000',
      VOICE_LOG_LEVEL: 'warn',
      VOICE_DRAIN_SECONDS: '2',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const t0 = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`node exited ${child.exitCode}: ${stderr}`);
    try {
      const r = await fetch(`${url}/voice/capabilities`);
      if (r.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() - t0 > 20_000) throw new Error(`node did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    wsUrl: `ws://127.0.0.1:${port}`,
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
