/*
 * Node capacity: concurrent filter sessions ramped step by step until p99 utterance → verdict passes
 * 50 ms or p99 event-loop delay passes 20 ms; the largest count that held for the whole hold time is the
 * capacity. As on a node in service, calls come and go: each lives one to three minutes and is replaced when
 * it ends, so every step is judged over the verdicts of the calls that start during its hold. Then, for the
 * CPU-per-session ratio, the same calls' audio alternately to the node and to a bare uWebSockets.js server
 * (the transport ceiling), in pairs of windows.
 */
import os from 'node:os';
import { median, ms } from '../lib/stats.js';
import { table } from '../lib/report.js';
import {
  callLoad,
  openCalls,
  sleep,
  spreadRate,
  startClient,
  startServer,
  stopServer,
  type ClientProc,
  type ServerProc,
  warmUp,
  WARM_UP_S,
} from '../lib/procs.js';
import type { Opts } from '../run.js';

const MAX_VERDICT_P99_MS = 50;
const MAX_LOOP_P99_MS = 20;

interface Step {
  sessions: number;
  failed: number;
  /** Rules verdicts timed in the hold (the sample behind the p99). */
  verdicts: number;
  verdictP99: number;
  lineP99: number;
  loopP99: number;
  handoffP99: number;
  lateP99: number;
  cpuPerSession: number;
  loopBusy: number;
  held: boolean;
  load: number;
}

async function measure(server: ServerProc, client: ClientProc, holdS: number, settleS: number) {
  await sleep(settleS * 1000);
  await Promise.all([server.ask({ cmd: 'mark' }), client.ask({ cmd: 'mark' })]);
  await sleep(holdS * 1000);
  const [s, c] = await Promise.all([server.ask({ cmd: 'sample' }), client.ask({ cmd: 'sample' })]);
  return { s, c };
}

/**
 * The CPU ratio: the node's calls and as many on the bare server stay connected, and the client streams to one
 * side at a time, alternating windows; so each pair is measured within the same minute, and the node's calls
 * keep the ages they had in the ramp (a call's per-second cost is not that of its first seconds).
 */
const RATIO_PAIRS = 3;
const RATIO_WINDOW_S = 30;
/** After switching sides: the socket buffers drain and the paused side goes quiet. */
const SWITCH_S = 2;

interface Pair {
  node: number;
  bare: number;
  bareLoopP99: number;
}

/** The step the ratio is measured at: the largest that held, or the first. */
function reference(results: readonly Step[]): Step {
  return results.filter((r) => r.held).at(-1) ?? results[0]!;
}

/** CPU per session of `server` over one window, with `sessions` calls streaming to it and none elsewhere. */
async function cpuWindow(server: ServerProc, client: ClientProc, sessions: number, s: number) {
  const m = await measure(server, client, s, SWITCH_S);
  return { cpu: m.s.cpuSeconds / m.s.seconds / sessions, loopP99: m.s.eventLoopDelay.p99 };
}

export async function capacity(o: Opts): Promise<string> {
  // `--sessions N`: one step of N, then the ratio at N (a quick paired check of a change, without the ramp).
  const steps = o.sessions
    ? [o.sessions]
    : o.short
      ? [50, 100]
      : [100, 200, 300, 400, 600, 800, 1000, 1200, 1500, 2000];
  const holdS = o.seconds ?? (o.short ? 4 : 60);
  const load = callLoad(o.short);
  const { life, settleS } = load;
  const results: Step[] = [];
  const pairs: Pair[] = [];
  const { server, url, key } = await startServer('node');
  const client = await startClient();
  let bare: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    await warmUp(client, url, key, o.short ? 0 : WARM_UP_S);
    for (const n of steps) {
      const opened = await openCalls(client, { url, key }, n, n - (results.at(-1)?.sessions ?? 0), load);
      const { s, c } = await measure(server, client, holdS, settleS);
      const step: Step = {
        // Replacements being opened count: a call ending and its successor connecting is one line of a node.
        sessions: c.live + c.opening,
        failed: opened.failed,
        verdicts: c.verdictLatency.count,
        // Without a verdict in the window (none of the step's sessions escalated in it), the line is the proxy.
        verdictP99: c.verdictLatency.count > 0 ? c.verdictLatency.p99 : c.lineLatency.p99,
        lineP99: c.lineLatency.p99,
        loopP99: s.eventLoopDelay.p99,
        handoffP99: s.handoff?.p99 ?? NaN,
        lateP99: c.sendLateness.p99,
        cpuPerSession: s.cpuSeconds / s.seconds / c.live,
        loopBusy: s.loopUtilization,
        held: false,
        load: os.loadavg()[0]!,
      };
      step.held =
        step.sessions >= n &&
        c.unexpectedCloses === 0 &&
        step.verdictP99 <= MAX_VERDICT_P99_MS &&
        step.loopP99 <= MAX_LOOP_P99_MS;
      results.push(step);
      if (!step.held) break;
    }

    // The transport ceiling at the node's reference point (its capacity, or the first step).
    const ref = reference(results);
    // The ratio compares streaming alone: a fixed set of calls on each side, none starting or ending.
    await client.ask({ cmd: 'freeze' });
    await client.ask({ cmd: 'trim', url, total: ref.sessions });
    bare = await startServer('bare');
    const b = bare;
    await client.ask({
      cmd: 'open',
      url: b.url,
      key: b.key,
      total: ref.sessions,
      rate: spreadRate(ref.sessions),
      paused: true,
    });
    const windowS = o.seconds ?? (o.short ? 4 : RATIO_WINDOW_S);
    for (let i = 0; i < (o.short ? 1 : RATIO_PAIRS); i++) {
      const node = await cpuWindow(server, client, ref.sessions, windowS);
      await client.ask({ cmd: 'stream', url, on: false });
      await client.ask({ cmd: 'stream', url: b.url, on: true });
      const transport = await cpuWindow(b.server, client, ref.sessions, windowS);
      await client.ask({ cmd: 'stream', url: b.url, on: false });
      await client.ask({ cmd: 'stream', url, on: true });
      pairs.push({ node: node.cpu, bare: transport.cpu, bareLoopP99: transport.loopP99 });
    }
    await client.ask({ cmd: 'closeAll' });
  } finally {
    client.kill();
    await stopServer(server);
    if (bare) await stopServer(bare.server);
  }
  const held = results.filter((r) => r.held).at(-1);
  const ref = reference(results);
  const pct = (x: number) => `${(x * 100).toFixed(3)} %`;
  return [
    `#### Node capacity (each step held ${holdS} s; limits: p99 utterance → verdict ≤ ${MAX_VERDICT_P99_MS} ms, p99 event-loop delay ≤ ${MAX_LOOP_P99_MS} ms)`,
    '',
    `Each call lives ${life.minMs / 1000}–${life.maxMs / 1000} s and is replaced when it ends; a step is measured ` +
      `from ${settleS} s after its last new call opened, over the verdicts of the calls that started in its hold.`,
    '',
    table(
      [
        'sessions',
        'held',
        'p99 utterance → line',
        'p99 utterance → verdict (verdicts)',
        'p99 loop delay',
        'p99 hand-off',
        'p99 client send lateness',
        'server CPU / session',
        'main thread busy',
        'load avg (1 min)',
      ],
      results.map((r) => [
        r.sessions + (r.failed ? ` (${r.failed} failed to open)` : ''),
        r.held ? 'yes' : '**no**',
        ms(r.lineP99),
        `${ms(r.verdictP99)} (${r.verdicts})`,
        ms(r.loopP99),
        ms(r.handoffP99, 3),
        ms(r.lateP99),
        pct(r.cpuPerSession),
        `${(r.loopBusy * 100).toFixed(0)} %`,
        r.load.toFixed(1),
      ]),
    ),
    '',
    `**Capacity: ${held ? held.sessions : 'below the first step'}** concurrent real-time filter sessions held on one node${
      results.at(-1)?.held ? ' (the largest step tried: the limit is higher)' : ''
    }.`,
    '',
    `Transport ceiling at ${ref.sessions} sessions: as many calls on a bare uWebSockets.js server that only receives ` +
      `the frames, connected beside the node's; the client streams to one side at a time, in alternating windows of ` +
      `${o.seconds ?? (o.short ? 4 : RATIO_WINDOW_S)} s:`,
    '',
    table(
      ['pair', 'node CPU / session', 'bare CPU / session', 'bare p99 loop delay', 'ratio'],
      pairs.map((p, i) => [
        String(i + 1),
        pct(p.node),
        pct(p.bare),
        ms(p.bareLoopP99),
        `${(p.node / p.bare).toFixed(2)}×`,
      ]),
    ),
    '',
    `**Pipeline CPU per session = ${median(pairs.map((p) => p.node / p.bare)).toFixed(2)}× the bare transport's** ` +
      `(median of the pairs' ratios).`,
  ].join('\n');
}
