/*
 * Memory: heap and RSS per live session, and a soak with sessions opening and closing all the time:
 * heap after GC sampled at intervals, with its least-squares slope (a leak shows as a steady climb).
 */
import { kb, mb, slope } from '../lib/stats.js';
import { table } from '../lib/report.js';
import { sleep, startClient, startServer, stopServer } from '../lib/procs.js';
import type { Opts } from '../run.js';

export async function soak(o: Opts): Promise<string> {
  const liveN = o.sessions ?? (o.short ? 40 : 200);
  const totalS = o.seconds ?? (o.short ? 30 : 600);
  const everyS = o.short ? 3 : 30;
  const life = o.short ? { minMs: 2000, maxMs: 6000 } : { minMs: 10_000, maxMs: 40_000 };
  const { server, url, key } = await startServer('node');
  const client = await startClient();
  try {
    const base = await server.ask({ cmd: 'gc' });
    await client.ask({ cmd: 'churn', url, key, live: liveN, ...life });
    const samples: Array<{ t: number; heap: number; rss: number; external: number; live: number; ended: number }> = [];
    const t0 = performance.now();
    while (performance.now() - t0 < totalS * 1000) {
      await sleep(everyS * 1000);
      const [m, c] = await Promise.all([server.ask({ cmd: 'gc' }), client.ask({ cmd: 'sample' })]);
      samples.push({
        t: (performance.now() - t0) / 1000,
        heap: m.heapUsed,
        rss: m.rss,
        external: m.external,
        live: c.live,
        ended: c.ended,
      });
    }
    const c = await client.ask({ cmd: 'sample' });
    await client.ask({ cmd: 'closeAll' });
    await sleep(2000);
    const after = await server.ask({ cmd: 'gc' });
    // The first samples include warm-up (JIT, caches filling); the trend is read over the second half.
    const half = samples.slice(Math.floor(samples.length / 2));
    const heapSlope = slope(
      half.map((s) => s.t / 60),
      half.map((s) => s.heap),
    );
    const rssSlope = slope(
      half.map((s) => s.t / 60),
      half.map((s) => s.rss),
    );
    const allSlope = slope(
      samples.map((s) => s.t / 60),
      samples.map((s) => s.heap),
    );
    const mid = samples[Math.floor(samples.length / 2)]!;
    return [
      `#### Memory soak: ~${liveN} live sessions, each living ${life.minMs / 1000}–${life.maxMs / 1000} s then stopping and replaced, ${totalS} s`,
      '',
      `Sessions opened ${c.opened}, ended cleanly ${c.ended}, failed to open ${c.failed}, ended unexpectedly ${c.unexpectedCloses}.`,
      '',
      table(
        ['t (s)', 'live', 'heap after GC (MB)', 'external + array buffers (MB)', 'RSS (MB)'],
        samples.map((s) => [s.t.toFixed(0), s.live, mb(s.heap), mb(s.external), mb(s.rss)]),
      ),
      '',
      `Heap after GC: ${mb(base.heapUsed)} MB idle before, ${mb(after.heapUsed)} MB after every session closed; ` +
        `per live session ≈ ${kb((mid.heap - base.heapUsed) / Math.max(1, mid.live))} KB heap, ` +
        `${kb((mid.rss - base.rss) / Math.max(1, mid.live))} KB RSS. ` +
        `Slope over the second half: heap **${kb(heapSlope)} KB/min**, RSS ${kb(rssSlope)} KB/min (whole run: heap ${kb(allSlope)} KB/min).`,
    ].join('\n');
  } finally {
    client.kill();
    await stopServer(server);
  }
}
