import { expect } from 'chai';
import WebSocket from 'ws';
import { openLive, send, transcript, waitFor, type LiveRun } from '../integration/helpers/live-client.js';
import {
  alive,
  spawnNode,
  tempDataDir,
  testKey,
  waitNoLiveSessions,
  type NodeProcess,
} from './helpers/node-process.js';

/**
 * A full node (200 live sessions streaming audio in real time, in its own process): the 201st upgrade is
 * answered 503 while the 200 keep real time: frames still flow, and each call's words come back as
 * transcript lines within a fraction of a second. When they end, every slot is free again.
 */
describe('reliability: a node at its session cap', function () {
  this.timeout(120_000);
  let node: NodeProcess;
  const key = testKey();
  const runs: LiveRun[] = [];
  let pump: NodeJS.Timeout | undefined;

  before(async () => {
    node = await spawnNode({ dataDir: tempDataDir(), env: { VOICE_BOOTSTRAP_KEYS: `${key}:10000000` } });
  });
  after(async () => {
    clearInterval(pump);
    for (const run of runs) if (run.ws.readyState === WebSocket.OPEN) run.ws.terminate();
    await node?.kill();
  });

  it('answers the 201st 503 while the 200 keep real time, and frees every slot after', async () => {
    const u = `${node.wsUrl}/voice/filter/stream?key=${key}`;
    for (let i = 0; i < 200; i += 25) runs.push(...(await Promise.all(Array.from({ length: 25 }, () => openLive(u)))));
    for (const [i, run] of runs.entries()) send(run, { type: 'start', call_id: `cap-${i}`, from: '+12025550180' });
    await Promise.all(runs.map((run) => waitFor(run, 'session.started', 20_000)));

    // 100 ms pcm16 frames at 8 kHz, in real time, on every socket.
    const frame = Buffer.alloc(1600);
    pump = setInterval(() => {
      for (const run of runs) if (run.ws.readyState === WebSocket.OPEN) run.ws.send(frame);
    }, 100);

    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(u);
      ws.on('unexpected-response', (_q, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => {
        ws.close();
        resolve(101);
      });
      ws.on('error', () => resolve(-1));
    });
    expect(refused).to.equal(503);

    // Three rounds of one line per call; each must come back as its transcript.line promptly.
    const latencies: number[] = [];
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        runs.map(async (run, i) => {
          const text = `round ${round} call ${i}: please confirm the appointment`;
          const t0 = Date.now();
          transcript(run, text);
          for (;;) {
            if (run.events.some((e) => e.type === 'transcript.line' && e.text === text)) break;
            if (Date.now() - t0 > 10_000) throw new Error(`call ${i}: no line back within 10 s`);
            await new Promise((r) => setTimeout(r, 5));
          }
          latencies.push(Date.now() - t0);
        }),
      );
      await new Promise((r) => setTimeout(r, 300));
    }
    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.floor(latencies.length * 0.99)]!;
    expect(p99, `p99 ${p99} ms over ${latencies.length} lines`).to.be.below(1000);

    clearInterval(pump);
    for (const run of runs) send(run, { type: 'stop' });
    await Promise.all(runs.map((run) => run.closed));
    expect(runs.every((run) => run.events.at(-1)!.type === 'session.ended')).to.equal(true);
    expect(await waitNoLiveSessions(node)).to.equal(0);
    // A slot is free again: a new session starts.
    const again = await openLive(u);
    send(again, { type: 'start' });
    await waitFor(again, 'session.started');
    send(again, { type: 'stop' });
    await again.closed;
    expect(await alive(node)).to.equal(true);
    if (process.env.FUZZ_REPORT)
      console.log(`    200 sessions: line round trip p50 ${latencies[latencies.length >> 1]} ms, p99 ${p99} ms`);
  });
});
