/**
 * Soak: sessions opening and closing against one node process for a long run, sampling the node's memory.
 *
 *   npx tsx bench/soak.ts                      # 10 minutes, 50 concurrent sessions
 *   SOAK_MINUTES=2 SOAK_CONCURRENCY=20 npx tsx bench/soak.ts
 *
 * Each worker loops: open a filter socket, start, stream 100 ms audio frames in real time and a few
 * transcript lines for 2–6 s, stop, wait for session.ended. Every 15 s the node's resident memory and used
 * heap are read from its metrics listener. The run passes when no session was lost (every started session
 * ended and is stored), the node holds no live session at the end, and memory is flat: the used heap in the
 * last fifth of the run is within 25 % (and 32 MB) of the second fifth, after warm-up.
 */
import WebSocket from 'ws';
import {
  alive,
  liveSessions,
  spawnNode,
  storedSessions,
  tempDataDir,
  testKey,
} from '../test/reliability/helpers/node-process.js';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 50);
const LINES = [
  'Hello, this is the bank security department calling about your account.',
  'We noticed a suspicious transfer and need to verify your identity now.',
  'Please read me the code we just sent to your phone.',
  'Thank you, have a good day.',
];

interface Sample {
  t: number;
  rssMb: number;
  heapMb: number;
  live: number;
  sessions: number;
}

async function metric(port: number, name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line ? Number(line.split(' ').pop()) : NaN;
}

async function main(): Promise<void> {
  const key = testKey('soak');
  const dataDir = tempDataDir();
  const node = await spawnNode({ dataDir, env: { VOICE_BOOTSTRAP_KEYS: `${key}:100000000`, VOICE_LOG_LEVEL: 'warn' } });
  const end = Date.now() + MINUTES * 60_000;
  let started = 0;
  let ended = 0;
  let failed = 0;
  const frame = Buffer.alloc(1600);

  const one = () =>
    new Promise<void>((resolve) => {
      const ws = new WebSocket(`${node.wsUrl}/voice/filter/stream?key=${key}`);
      let timer: NodeJS.Timeout | undefined;
      let gotStart = false;
      let gotEnd = false;
      ws.on('message', (d, bin) => {
        if (bin) return;
        const e = JSON.parse(d.toString()) as { type: string };
        if (e.type === 'session.started') {
          gotStart = true;
          started++;
          const stopAt = Date.now() + 2000 + Math.random() * 4000;
          let n = 0;
          timer = setInterval(() => {
            ws.send(frame);
            if (++n % 10 === 0) ws.send(JSON.stringify({ type: 'transcript', text: LINES[(n / 10) % LINES.length] }));
            if (Date.now() > stopAt) {
              clearInterval(timer);
              ws.send(JSON.stringify({ type: 'stop' }));
            }
          }, 100);
        }
        if (e.type === 'session.ended') {
          gotEnd = true;
          ended++;
        }
      });
      ws.on('open', () => ws.send(JSON.stringify({ type: 'start', from: '+12025550190' })));
      ws.on('error', () => undefined);
      ws.on('close', () => {
        clearInterval(timer);
        if (!gotStart || !gotEnd) failed++;
        resolve();
      });
    });

  const workers = Array.from({ length: CONCURRENCY }, async () => {
    while (Date.now() < end) await one();
  });

  const samples: Sample[] = [];
  const t0 = Date.now();
  const sample = async () => {
    samples.push({
      t: Math.round((Date.now() - t0) / 1000),
      rssMb: (await metric(node.metricsPort, 'process_resident_memory_bytes')) / 2 ** 20,
      heapMb: (await metric(node.metricsPort, 'nodejs_heap_size_used_bytes')) / 2 ** 20,
      live: await liveSessions(node),
      sessions: ended,
    });
    const s = samples.at(-1)!;
    console.log(
      `${String(s.t).padStart(5)} s  rss ${s.rssMb.toFixed(1)} MB  heap ${s.heapMb.toFixed(1)} MB  live ${s.live}  ended ${s.sessions}`,
    );
  };
  const sampler = setInterval(() => void sample(), 15_000);
  await sample();
  await Promise.all(workers);
  clearInterval(sampler);
  await new Promise((r) => setTimeout(r, 2000));
  await sample();

  const live = await liveSessions(node);
  const stored = (await storedSessions(dataDir)).filter((s) => s.state === 'ended').length;
  const open = (await storedSessions(dataDir)).filter((s) => s.state === 'open').length;
  const up = await alive(node);
  await node.stop();

  const fifth = (k: number) =>
    samples.slice(Math.floor((samples.length * k) / 5), Math.floor((samples.length * (k + 1)) / 5));
  const mean = (xs: Sample[]) => xs.reduce((a, s) => a + s.heapMb, 0) / Math.max(1, xs.length);
  const early = mean(fifth(1));
  const late = mean(fifth(4));
  const flat = late <= early * 1.25 || late - early <= 32;
  console.log(
    `\nsoak: ${MINUTES} min, ${CONCURRENCY} concurrent; sessions started ${started}, ended ${ended}, ` +
      `stored ${stored}, left open ${open}, failed ${failed}; live at end ${live}; ` +
      `heap ${early.toFixed(1)} → ${late.toFixed(1)} MB (${flat ? 'flat' : 'GROWING'}); node ${up ? 'up' : 'DOWN'}`,
  );
  const ok = up && live === 0 && open === 0 && failed === 0 && started === ended && stored === ended && flat;
  process.exitCode = ok ? 0 : 1;
}

await main();
