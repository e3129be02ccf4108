/**
 * How long one hostile JSON body holds the node's main thread, and so every live call on it.
 * `npx tsx bench/body-stall.ts`: prints, in one run,
 *  - the synchronous time of what the node did with a 12 MB `[[[[…` scan body before the shape check
 *    (JSON.parse until it fails: the baseline) and of the shape check that now refuses it, and of the
 *    check on a legitimate 24 MB body (one base64 audio field), which it lets through, and what that body
 *    still costs after it (decode, JSON.parse, base64);
 *  - the main thread's longest stall (event-loop delay max and p99) while a legitimate 24 MB scan body, as
 *    JSON with `audio_base64` and as a multipart form, is read on the main thread (the baseline) and through
 *    the route's reader, which hands bodies over 256 KiB to a worker thread;
 *  - against a node in its own process: the latency of `GET /voice/capabilities`, polled back to back,
 *    while the 12 MB body is posted (max and p99 over the post), and the post's own answer and time.
 */
import { performance } from 'node:perf_hooks';
import { jsonShapeProblem } from '../src/server/http/json-shape.js';
import { bodyReadStalls } from './lib/body-read-stall.js';
import { spawnNode, tempDataDir, testKey } from '../test/reliability/helpers/node-process.js';

const MB = 1024 * 1024;
const brackets = Buffer.from('['.repeat(12 * MB));
const audio = Buffer.from(`{"audio_base64":"${'QUFB'.repeat(6 * MB)}","encoding":"pcm16","sample_rate":8000}`);

function time(fn: () => unknown): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const guard = median([1, 2, 3, 4, 5].map(() => time(() => jsonShapeProblem(brackets))));
const guardAudio = median([1, 2, 3, 4, 5].map(() => time(() => jsonShapeProblem(audio))));
const parse = time(() => {
  try {
    JSON.parse(brackets.toString('utf8'));
  } catch {
    /* the baseline fails too, only much later */
  }
});
// What a legitimate body of that size still costs the main thread after the check: decode, parse, base64.
const legit = median(
  [1, 2, 3].map(() =>
    time(() => Buffer.from((JSON.parse(audio.toString('utf8')) as { audio_base64: string }).audio_base64, 'base64')),
  ),
);
console.log(`12 MB [[[[…: JSON.parse until it fails ${parse.toFixed(0)} ms (baseline, one run)`);
console.log(`12 MB [[[[…: shape check refuses it in ${guard.toFixed(3)} ms (median of 5)`);
console.log(`24 MB base64 audio body: shape check lets it through in ${guardAudio.toFixed(3)} ms (median of 5)`);
console.log(`24 MB base64 audio body: toString, JSON.parse and base64 decode ${legit.toFixed(0)} ms (median of 3)`);

await bodyReadStalls();

const key = testKey('stall');
const node = await spawnNode({ dataDir: tempDataDir(), env: { VOICE_BOOTSTRAP_KEYS: `${key}:1000000` } });
/** The node's largest event-loop delay since the previous scrape, in ms. */
async function lagMax(): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${node.metricsPort}/metrics`)).text();
  return 1000 * Number(/^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text)?.[1] ?? NaN);
}
try {
  for (let i = 0; i < 20; i++) await (await fetch(`${node.url}/voice/capabilities`)).text();
  let posting = true;
  let lat: number[] = [];
  const poll = (async () => {
    while (posting) {
      const t0 = performance.now();
      await (await fetch(`${node.url}/voice/capabilities`)).text();
      lat.push(performance.now() - t0);
    }
  })();
  // The same polling with nothing else going on, as the reference on this (shared) machine.
  await lagMax(); // prom-client resets the event-loop delay histogram at every scrape
  await new Promise((r) => setTimeout(r, 3000));
  const idle = lat;
  const idleLag = await lagMax();
  lat = [];
  const t0 = performance.now();
  const res = await fetch(`${node.url}/voice/scan`, {
    method: 'POST',
    body: brackets,
    headers: { 'content-type': 'application/json', 'x-auth': key },
  });
  const answer = await res.text();
  const postMs = performance.now() - t0;
  posting = false;
  await poll;
  const postLag = await lagMax();
  console.log(
    `node's event-loop delay, max: idle 3 s ${idleLag.toFixed(1)} ms; over the POST ${postLag.toFixed(1)} ms`,
  );
  const sorted = [...lat].sort((a, b) => a - b);
  const served = node
    .stdout()
    .split('\n')
    .filter((l) => l.includes('"path":"/voice/scan"'))
    .map((l) => (JSON.parse(l) as { ms: number }).ms);
  const idleSorted = [...idle].sort((a, b) => a - b);
  console.log(
    `GET /voice/capabilities, idle node: ${idle.length} requests, median ${median(idle).toFixed(1)} ms, ` +
      `p99 ${idleSorted[Math.floor(idleSorted.length * 0.99)]!.toFixed(1)} ms, max ${idleSorted.at(-1)!.toFixed(1)} ms`,
  );
  console.log(`node's own time for the POST (access log, from headers to answer): ${served.join(', ')} ms`);
  console.log(`POST 12 MB [[[[… to a node process: ${res.status} ${answer} in ${postMs.toFixed(0)} ms`);
  console.log(
    `GET /voice/capabilities meanwhile: ${lat.length} requests, median ${median(lat).toFixed(1)} ms, ` +
      `p99 ${sorted[Math.floor(sorted.length * 0.99)]!.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`,
  );
} finally {
  await node.kill();
}
