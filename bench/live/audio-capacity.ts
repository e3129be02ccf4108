/*
 * Audio calls per node with the embedded recogniser: a node run as its own process (VOICE_STT=sphinx)
 * takes N concurrent filter calls of real speech, streamed in real time as a telephony vendor sends it
 * (8 kHz mu-law, 20 ms frames), for N stepping up. Transcript lag is the time from the end of a sentence's
 * audio to the transcript line it produced; each line is matched to the earliest sentence that had ended
 * and has no line yet, so a sentence that produced no line makes the next one look later, never earlier.
 *
 *   npx tsx bench/live/audio-capacity.ts [--calls 1,2,4,6,8] [--seconds 90] [--search accurate|fast]
 *
 * Speech: the evaluation's kind of sentences, said by flite's voices (slt, rms, awb, kal) through a
 * telephone channel (300-3400 Hz, G.711 mu-law), 1.5 s of silence after each sentence (the other party).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { hostReference } from '../lib/host-speed.js';

const SENTENCES = [
  'Hello, this is officer Daniel Brooks from the tax office.',
  'There is a warrant for your arrest because of unpaid back taxes.',
  'You must pay today with gift cards from the store.',
  'Do not hang up and do not tell anyone about this call.',
  'Hi, I am calling about your appointment next Tuesday afternoon.',
  'Please call the bank today about your credit card.',
  'Your social security number has been suspended.',
  'Download the remote access app so our technician can fix your computer.',
];
const VOICES = ['slt', 'rms', 'awb', 'kal'];
const GAP_S = 1.5;
const RATE = 8000;

function arg(name: string, dflt: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : dflt;
}

/** One voice's call: the sentences in a rotated order, each followed by silence; with each sentence's end. */
function renderCall(voice: string, rotate: number, dir: string): { audio: Buffer; ends: number[] } {
  const parts: Buffer[] = [];
  const ends: number[] = [];
  let samples = 0;
  for (let k = 0; k < SENTENCES.length; k++) {
    const text = SENTENCES[(k + rotate) % SENTENCES.length]!;
    const wav = path.join(dir, `${voice}-${k}.wav`);
    execFileSync('flite', ['-voice', voice, '-t', text, '-o', wav]);
    const ulaw = execFileSync('sox', [
      wav,
      '-t',
      'raw',
      '-r',
      String(RATE),
      '-c',
      '1',
      '-e',
      'mu-law',
      '-',
      'sinc',
      '300-3400',
    ]);
    parts.push(ulaw);
    samples += ulaw.length;
    ends.push(samples / RATE);
    const gap = Buffer.alloc(Math.round(GAP_S * RATE), 0xff); // mu-law silence
    parts.push(gap);
    samples += gap.length;
  }
  return { audio: Buffer.concat(parts), ends };
}

interface CallResult {
  lags: number[];
  sentences: number;
  lines: number;
  errors: string[];
}

/** Streams `audio` in real time (repeated until `seconds`) and times each transcript line. */
async function runCall(wsUrl: string, key: string, call: { audio: Buffer; ends: number[] }, seconds: number) {
  const ws = new WebSocket(`${wsUrl}/voice/filter/stream?key=${key}`);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const result: CallResult = { lags: [], sentences: 0, lines: 0, errors: [] };
  const ended: number[] = []; // wall times of sentence ends, not yet matched
  ws.on('message', (data, binary) => {
    if (binary) return;
    const e = JSON.parse(data.toString()) as { type: string; speaker?: string; error?: string };
    if (e.type === 'session.error') result.errors.push(e.error ?? '');
    if (e.type !== 'transcript.line' || e.speaker !== 'caller') return;
    result.lines += 1;
    const now = performance.now();
    const end = ended.length && ended[0]! <= now ? ended.shift()! : undefined;
    if (end !== undefined) result.lags.push(now - end);
  });
  ws.send(JSON.stringify({ type: 'start', encoding: 'mulaw', sample_rate: RATE }));
  const loop = call.audio.length / RATE;
  const t0 = performance.now();
  const frame = 160;
  const total = Math.floor((seconds * RATE) / frame);
  let nextEnd = 0;
  for (let i = 0; i < total; i++) {
    const due = t0 + i * 20;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const at = (i * frame) % call.audio.length;
    ws.send(call.audio.subarray(at, at + frame));
    // A sentence has ended once its last sample was sent.
    const sent = ((i + 1) * frame) / RATE;
    for (;;) {
      const lap = Math.floor(nextEnd / call.ends.length);
      const end = lap * loop + call.ends[nextEnd % call.ends.length]!;
      if (end > sent) break;
      ended.push(t0 + end * 1000);
      result.sentences += 1;
      nextEnd += 1;
    }
  }
  // Time for the last lines, then the end of the call.
  await new Promise((r) => setTimeout(r, 8000));
  result.sentences -= ended.length; // still unmatched: counted as lost below
  const lost = ended.length;
  ws.send(JSON.stringify({ type: 'stop' }));
  await new Promise((r) => ws.once('close', r));
  return { ...result, lost };
}

/** The node as an operator runs it (`src/main.ts serve`), configured by its environment. */
async function startNode(env: Record<string, string>): Promise<{ wsUrl: string; close(): Promise<void> }> {
  const port = await new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(p));
    });
  });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'audio-capacity-node-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
    env: {
      ...process.env,
      VOICE_HOST: '127.0.0.1',
      VOICE_PORT: String(port),
      VOICE_DATA_DIR: dataDir,
      VOICE_SIP_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // A shared host can take a minute to compile and start it.
  for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 250))) {
    if (child.exitCode !== null) throw new Error(`node exited ${child.exitCode}`);
    if (Date.now() - t0 > 180_000) throw new Error('node did not start in 180 s');
    const up = await fetch(`http://127.0.0.1:${port}/voice/capabilities`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
  }
  return {
    wsUrl: `ws://127.0.0.1:${port}`,
    close: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function pct(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

async function main(): Promise<void> {
  const steps = arg('calls', '1,2,4,6,8').split(',').map(Number);
  const seconds = Number(arg('seconds', '90'));
  const search = arg('search', 'accurate');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audio-capacity-'));
  const calls = VOICES.flatMap((v, i) => [renderCall(v, i, dir), renderCall(v, i + 4, dir)]);
  const key = `bench_${Date.now()}`;
  const node = await startNode({
    VOICE_STT: 'sphinx',
    VOICE_SPHINX_SEARCH: search,
    VOICE_STT_MAX_CALLS: String(Math.max(...steps)),
    VOICE_LLM: 'local',
    VOICE_BOOTSTRAP_KEYS: `${key}:100000000`,
    VOICE_LOG_LEVEL: 'warn',
    VOICE_RATE_LIMIT: '100000',
    VOICE_DRAIN_SECONDS: '2',
  });
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD']).toString().trim();
  const before = hostReference();
  console.log(
    `# audio capacity: ${os.cpus()[0]?.model} x${os.availableParallelism()}, ${new Date().toISOString()}, ` +
      `commit ${commit}, search ${search}, ${seconds} s per step`,
  );
  console.log('| calls | sentences | lines | lost | lag p50 | lag p95 | lag p99 | max | refused | load 1m |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  const results_errors: string[] = [];
  try {
    for (const n of steps) {
      const results = await Promise.all(
        Array.from({ length: n }, (_, i) => runCall(node.wsUrl, key, calls[i % calls.length]!, seconds)),
      );
      const lags = results.flatMap((r) => r.lags);
      for (const r of results) results_errors.push(...r.errors);
      const s = (x: number): string => (Number.isNaN(x) ? '–' : `${(x / 1000).toFixed(2)} s`);
      console.log(
        `| ${n} | ${results.reduce((a, r) => a + r.sentences + r.lost, 0)} | ${results.reduce((a, r) => a + r.lines, 0)} | ` +
          `${results.reduce((a, r) => a + r.lost, 0)} | ${s(pct(lags, 50))} | ${s(pct(lags, 95))} | ${s(pct(lags, 99))} | ` +
          `${s(Math.max(...lags))} | ${results.filter((r) => r.errors.length).length} | ${os.loadavg()[0]!.toFixed(1)} |`,
      );
    }
    console.log(
      `\nHost reference (rules calls/s on one idle thread) before ${Math.round(before)}, after ${Math.round(hostReference())}; ` +
        `load average ${os
          .loadavg()
          .map((x) => x.toFixed(1))
          .join(' ')}.`,
    );
    const errors = new Set(results_errors);
    if (errors.size) console.log(`session.error: ${[...errors].join(' / ')}`);
  } finally {
    await node.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
