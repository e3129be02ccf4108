/**
 * The main thread's longest stall while one legitimate 24 MB scan body is read: on the main thread (what
 * the node did before) and through the route's reader (large bodies read on a worker thread), alternated
 * in one run so the machine's load weighs on both alike.
 */
import os from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseScanRequest } from '../../src/server/routes/scan-body.js';
import { readScanBody, validateScan } from '../../src/server/routes/scan-request.js';
import type { HttpRequest } from '../../src/server/types.js';

const MB = 1024 * 1024;
const ROUNDS = 5;

async function bodies(): Promise<Array<[string, string, Buffer]>> {
  const json = Buffer.from(`{"audio_base64":"${'QUFB'.repeat(6 * MB)}","encoding":"pcm16","sample_rate":8000}`);
  const form = new FormData();
  form.set('audio', new Blob([Buffer.alloc(24 * MB, 1)]), 'call.raw');
  form.set('encoding', 'pcm16');
  form.set('sample_rate', '8000');
  const r = new Response(form);
  const formType = r.headers.get('content-type')!;
  return [
    ['24 MB JSON, audio_base64', 'application/json', json],
    ['24 MB multipart, audio file', formType, Buffer.from(await r.arrayBuffer())],
  ];
}

/** Event-loop delay (max, p99, in ms) and wall time over one read; the body is a fresh copy each time. */
async function measure(read: (req: HttpRequest) => Promise<unknown>, type: string, body: Buffer) {
  const req = { headers: { 'content-type': type }, body: Buffer.from(body) } as unknown as HttpRequest;
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  // The histogram counts a delay only between two of its timer's turns: let it turn before the read.
  await new Promise((r) => setTimeout(r, 20));
  const t0 = performance.now();
  await read(req);
  const ms = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 20)); // and after it, so it sees the loop's last turn
  h.disable();
  return { max: h.max / 1e6, p99: h.percentile(99) / 1e6, ms };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (xs: number[]) => `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;

export async function bodyReadStalls(): Promise<void> {
  const mainThread = async (req: HttpRequest) => validateScan(await readScanBody(req));
  console.log(
    `load average at start: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}`,
  );
  console.log('main thread event-loop delay while one body is read, ms: median (min–max) of ' + ROUNDS);
  const idle = await measure(() => new Promise((r) => setTimeout(r, 1000)), '', Buffer.alloc(0));
  console.log(
    `nothing read, 1 s (the machine's own scheduling delay): max ${idle.max.toFixed(1)}, p99 ${idle.p99.toFixed(1)}`,
  );
  for (const [name, type, body] of await bodies()) {
    await measure(parseScanRequest, type, body); // starts the worker, warms both paths
    await measure(mainThread, type, body);
    const before = { max: [] as number[], p99: [] as number[], ms: [] as number[] };
    const after = { max: [] as number[], p99: [] as number[], ms: [] as number[] };
    for (let i = 0; i < ROUNDS; i++) {
      for (const [into, read] of [
        [before, mainThread],
        [after, parseScanRequest],
      ] as const) {
        const m = await measure(read, type, body);
        into.max.push(m.max);
        into.p99.push(m.p99);
        into.ms.push(m.ms);
      }
    }
    console.log(
      `${name}: on the main thread: max ${fmt(before.max)}, p99 ${fmt(before.p99)}, read in ${fmt(before.ms)}; ` +
        `through a worker: max ${fmt(after.max)}, p99 ${fmt(after.p99)}, read in ${fmt(after.ms)}`,
    );
  }
}
