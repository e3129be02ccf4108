import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS } from '../../src/node-flags.js';
import { REPLAY_EVERY_MS } from '../../src/providers/stt/replay.js';
import type { ClientReply, ClientRequest, ServerReply, ServerRequest } from '../live/protocol.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** A forked benchmark process spoken to by request and reply (one request at a time per command). */
export class Proc<Req extends { cmd: string }, Rep extends { cmd: string }> {
  private waiting = new Map<string, Array<(r: Rep) => void>>();
  private constructor(readonly child: ChildProcess) {
    child.on('message', (m: Rep) => {
      const q = this.waiting.get(m.cmd);
      q?.shift()?.(m);
    });
  }

  static async start<Req extends { cmd: string }, Rep extends { cmd: string }>(
    file: string,
    args: string[] = [],
    env: Record<string, string> = {},
  ): Promise<{ proc: Proc<Req, Rep>; ready: Rep }> {
    const child = fork(path.join(here, '..', file), args, {
      // BENCH_CPU_PROF=dir: a V8 CPU profile of each benchmark process, written there when it exits.
      execArgv: [
        '--import',
        'tsx',
        '--expose-gc',
        // The flags a node runs with in service; the load client and the bare server run with them too, so
        // the three processes differ in their work, not their runtime.
        ...NODE_FLAGS,
        // BENCH_NODE_FLAGS="--trace-gc …": further V8/Node flags for each benchmark process (diagnosis).
        ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
        ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : []),
      ],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const proc = new Proc<Req, Rep>(child);
    const ready = await new Promise<Rep>((resolve, reject) => {
      proc.expect('ready', resolve);
      child.once('exit', (code) => reject(new Error(`${file} exited (${code}) before it was ready`)));
    });
    return { proc, ready };
  }

  private expect(cmd: string, fn: (r: Rep) => void): void {
    const q = this.waiting.get(cmd) ?? [];
    q.push(fn);
    this.waiting.set(cmd, q);
  }

  ask<C extends Req['cmd']>(req: Extract<Req, { cmd: C }>): Promise<Extract<Rep, { cmd: C }>> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`benchmark process exited (${code})`));
      this.child.once('exit', onExit);
      this.expect(req.cmd, (r) => {
        this.child.off('exit', onExit);
        resolve(r as Extract<Rep, { cmd: C }>);
      });
      this.child.send(req);
    });
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

export type ServerProc = Proc<ServerRequest, ServerReply>;
export type ClientProc = Proc<ClientRequest, ClientReply>;

export async function startServer(
  mode: 'node' | 'bare',
  env: Record<string, string> = {},
): Promise<{ server: ServerProc; url: string; key: string }> {
  const { proc, ready } = await Proc.start<ServerRequest, ServerReply>('live/server-proc.ts', [mode], env);
  if (ready.cmd !== 'ready') throw new Error('server not ready');
  return { server: proc, url: `ws://127.0.0.1:${ready.port}`, key: ready.key };
}

export async function startClient(): Promise<ClientProc> {
  return (await Proc.start<ClientRequest, ClientReply>('live/load-client.ts')).proc;
}

export const WARM_UP_S = 10;

/**
 * How the live benchmarks' calls come and go. `life`: how long a call lives (uniform); it is replaced when it
 * ends, so a node of 1,000 calls starts about eight a second, as a node in service does. `settleS`: from the
 * last of a burst of new calls opening to the measured window: the scripted call has its rules verdicts by
 * its third line (6 s), so the burst's verdicts are over and the window sees the steady ones of the calls
 * that replace ended calls. (Opening a benchmark's calls is far faster, and is not what it is judged on.)
 */
export interface CallLoad {
  life: { minMs: number; maxMs: number };
  settleS: number;
}

export const callLoad = (short: boolean): CallLoad =>
  short
    ? { life: { minMs: 3_000, maxMs: 9_000 }, settleS: 2 }
    : { life: { minMs: 60_000, maxMs: 180_000 }, settleS: 8 };

/**
 * Opens calls on `url` until `total` are live (`fresh` of them new, spread over a few seconds), each a call in
 * progress that is replaced when it ends.
 */
export async function openCalls(
  client: ClientProc,
  target: { url: string; key: string },
  total: number,
  fresh: number,
  load: CallLoad,
): Promise<Extract<ClientReply, { cmd: 'open' }>> {
  const { url, key } = target;
  const opened = await client.ask({ cmd: 'open', url, key, total, rate: spreadRate(fresh), life: load.life });
  await client.ask({ cmd: 'churn', url, key, live: total, ...load.life });
  return opened;
}

/**
 * Runs a short call load against a fresh node and ends it, so what is measured next is a warm node (as a
 * node is after its first minute of service), not the JIT compiling each path for its first calls. The
 * scripted calls escalate to `scam` in their first lines, so every verdict path runs during the warm-up.
 */
export async function warmUp(client: ClientProc, url: string, key: string, seconds: number): Promise<void> {
  if (seconds <= 0) return;
  await client.ask({ cmd: 'open', url, key, total: 50, rate: spreadRate(50) });
  await sleep(seconds * 1000);
  await client.ask({ cmd: 'closeAll' });
}

export async function stopServer(server: ServerProc): Promise<void> {
  const exited = new Promise((r) => server.child.once('exit', r));
  await Promise.race([server.ask({ cmd: 'stop' }).then(() => exited), sleep(20_000)]);
  server.kill();
}

/**
 * Opening rate that spreads `count` new sessions over one utterance period of the replay script, so their
 * utterances do not all complete in the same instant (real calls do not start in lockstep).
 */
export function spreadRate(count: number): number {
  return Math.max(20, Math.ceil(count / (REPLAY_EVERY_MS / 1000)));
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
