/*
 * Frame latency at N concurrent filter sessions (default 200): frame hand-off to the recogniser (server
 * probe), utterance → transcript.line and → verdict (client clock), event-loop delay, CPU and memory per
 * session. Calls come and go as on a node in service (each lives one to three minutes and is replaced), so
 * the verdicts measured are those of the calls that start in the window, spread across it.
 */
import { kb, ms } from '../lib/stats.js';
import { table } from '../lib/report.js';
import os from 'node:os';
import { callLoad, openCalls, sleep, startClient, startServer, stopServer, warmUp, WARM_UP_S } from '../lib/procs.js';
import type { Opts } from '../run.js';
import { HANDOFF_SAMPLE_EVERY } from './protocol.js';

export async function latency(o: Opts): Promise<string> {
  const sessions = o.sessions ?? (o.short ? 50 : 200);
  // Two minutes: at 200 calls, about 200 start in the window, each with two rules verdicts.
  const holdS = o.seconds ?? (o.short ? 6 : 120);
  const load = callLoad(o.short);
  const { life, settleS } = load;
  const { server, url, key } = await startServer('node');
  const client = await startClient();
  try {
    await warmUp(client, url, key, o.short ? 0 : WARM_UP_S);
    const base = await server.ask({ cmd: 'gc' });
    const opened = await openCalls(client, { url, key }, sessions, sessions, load);
    // Not from the opening burst: a scripted call's rules verdicts come in its first seconds (it escalates to
    // `scam` within a few lines), so those would all fall in the seconds when every call is starting at once.
    await sleep(settleS * 1000);
    const [, , before] = await Promise.all([
      server.ask({ cmd: 'mark' }),
      client.ask({ cmd: 'mark' }),
      client.ask({ cmd: 'sample' }),
    ]);
    await sleep(holdS * 1000);
    const [s, c] = await Promise.all([server.ask({ cmd: 'sample' }), client.ask({ cmd: 'sample' })]);
    const mem = await server.ask({ cmd: 'gc' });
    await client.ask({ cmd: 'closeAll' });
    // A call that has just ended and its successor still connecting count as one line of the node.
    const live = c.live + c.opening;
    const cpuPerSession = s.cpuSeconds / s.seconds / live;
    const h = s.handoff!;
    const rows = [
      [
        `frame arrival → recogniser hand-off (server, every ${HANDOFF_SAMPLE_EVERY}th frame)`,
        h.count,
        ms(h.p50, 3),
        ms(h.p99, 3),
        ms(h.max, 3),
      ],
      [
        'utterance → transcript.line (client)',
        c.lineLatency.count,
        ms(c.lineLatency.p50),
        ms(c.lineLatency.p99),
        ms(c.lineLatency.max),
      ],
      [
        'utterance → verdict (client, rules verdicts)',
        c.verdictLatency.count,
        ms(c.verdictLatency.p50),
        ms(c.verdictLatency.p99),
        ms(c.verdictLatency.max),
      ],
      [
        'server event-loop delay',
        s.eventLoopDelay.count,
        ms(s.eventLoopDelay.p50),
        ms(s.eventLoopDelay.p99),
        ms(s.eventLoopDelay.max),
      ],
      [
        'client frame send lateness (real-time check)',
        c.sendLateness.count,
        ms(c.sendLateness.p50),
        ms(c.sendLateness.p99),
        ms(c.sendLateness.max),
      ],
      [
        'client event-loop delay',
        c.clientEventLoopDelay.count,
        ms(c.clientEventLoopDelay.p50),
        ms(c.clientEventLoopDelay.p99),
        ms(c.clientEventLoopDelay.max),
      ],
    ];
    return [
      `#### Frame latency: ${live} concurrent filter sessions (${opened.failed} failed to open), ${s.seconds.toFixed(0)} s measured`,
      '',
      `Each call lives ${life.minMs / 1000}–${life.maxMs / 1000} s and is replaced when it ends (${c.opened - before.opened} ` +
        `started in the window); measured from ${settleS} s after the first ${sessions} opened.`,
      '',
      table(['measure (ms)', 'samples', 'p50', 'p99', 'max'], rows),
      '',
      table(
        ['per live session', 'value'],
        [
          ['server CPU (share of one core)', `${(cpuPerSession * 100).toFixed(3)} %`],
          ['server main thread busy (all sessions)', `${(s.loopUtilization * 100).toFixed(1)} %`],
          ['heap after GC', `${kb((mem.heapUsed - base.heapUsed) / live)} KB`],
          ['RSS', `${kb((mem.rss - base.rss) / live)} KB`],
          ['external + array buffers', `${kb((mem.external - base.external) / live)} KB`],
          ['client CPU (share of one core)', `${((c.clientCpuSeconds / s.seconds / live) * 100).toFixed(3)} %`],
          ['sessions ended unexpectedly', String(c.unexpectedCloses)],
          ['machine load average (1 min) at the end', os.loadavg()[0]!.toFixed(1)],
        ],
      ),
    ].join('\n');
  } finally {
    client.kill();
    await stopServer(server);
  }
}
