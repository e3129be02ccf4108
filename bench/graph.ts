/*
 * In-process cost of the live filter graph, without sockets: N session actors on the replay recogniser,
 * each pushed 20 ms μ-law frames as fast as the thread allows, round-robin (as a node interleaves
 * calls). Reports CPU microseconds per frame (median and spread of repeated rounds) and the share of
 * frames that completed an utterance. A quick instrument for the per-frame path the socket benchmarks
 * measure end to end; it is the figure to watch while changing operators.
 *
 *   npx tsx bench/graph.ts [--sessions 200] [--frames 500] [--rounds 7] [--write]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { asyncScheduler } from 'rxjs';
import { filterPipeline } from '../pipelines/filter.js';
import { loadConfig } from '../src/config.js';
import { buildServices, closeServices } from '../src/boot.js';
import type { Frame } from '../src/domain/frames.js';
import { SessionActor } from '../src/session/actor.js';
import type { SessionSpec } from '../src/session/types.js';
import { copyBytes } from '../src/util/bytes.js';
import { appendRun, machine, table } from './lib/report.js';
import { median, percentile } from './lib/stats.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const SESSIONS = arg('sessions', 200);
const FRAMES = arg('frames', 500);
const ROUNDS = arg('rounds', 7);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-graph-bench-'));
const config = loadConfig({ VOICE_STT: 'replay', VOICE_LLM: 'none', VOICE_TTS: 'none', VOICE_DATA_DIR: dataDir });
const services = await buildServices(config, pino({ level: 'silent' }));

function spec(i: number): SessionSpec {
  return {
    kind: 'filter',
    protocol: 'raw',
    key: { id: 'bench', hash: 'h', label: 'bench', credits: 1e12, created_at: new Date().toISOString() },
    rawKey: 'bench-key',
    start: { callId: `c${i}`, from: '+12025550123', audio: { encoding: 'mulaw', sampleRate: 8000 }, params: {} },
    options: { report: false, tracksBoth: false },
  };
}

async function round(): Promise<{ usPerFrame: number; lines: number }> {
  let lines = 0;
  const actors = Array.from({ length: SESSIONS }, (_, i) => {
    const a = new SessionActor(`s${i}`, spec(i), { services, scheduler: asyncScheduler, pipeline: filterPipeline });
    a.events$.subscribe((e) => {
      if (e.type === 'transcript.line') lines++;
    });
    a.run();
    return a;
  });
  // What the raw transport hands the session: its own copy of the socket's bytes.
  const silence = new Uint8Array(160).fill(0xff);
  const frame = (): Frame => ({ kind: 'audio', track: 'inbound', data: copyBytes(silence) });
  const cpu0 = process.cpuUsage();
  for (let f = 0; f < FRAMES; f++) for (const a of actors) a.push(frame());
  const cpu = process.cpuUsage(cpu0);
  for (const a of actors) a.end('closed');
  await Promise.all(actors.map((a) => a.ended));
  return { usPerFrame: (cpu.user + cpu.system) / (SESSIONS * FRAMES), lines };
}

await round(); // warm-up: JIT and the store's first writes
const runs: number[] = [];
let lines = 0;
for (let r = 0; r < ROUNDS; r++) {
  const out = await round();
  runs.push(out.usPerFrame);
  lines = out.lines;
}
await closeServices(services);
fs.rmSync(dataDir, { recursive: true, force: true });

const rows = [
  [
    'CPU per audio frame (µs)',
    ROUNDS,
    median(runs).toFixed(2),
    Math.min(...runs).toFixed(2),
    percentile(runs, 90).toFixed(2),
  ],
];
const md = [
  `#### Graph cost in process: ${SESSIONS} filter sessions × ${FRAMES} frames, ${ROUNDS} rounds`,
  '',
  table(['measure', 'rounds', 'median', 'min', 'p90'], rows),
  '',
  `Utterances per round: ${lines} transcript lines (one per 2 s of audio per session).`,
].join('\n');
console.log(`${machine()}\n\n${md}`);
if (process.argv.includes('--write')) appendRun(`### Run: graph\n\n${machine()}\n\n${md}\n`);
