/*
 * Tuning sweep for the embedded recogniser: word error rate of decoder settings on the tuning calls
 * (calibration split) spoken by the tuning voices (flite slt and rms), G.711 μ-law. Never run on the
 * report calls or voices. `npx tsx bench/speech/tune.ts [--calls N] [setting …]`, settings by name:
 * see SETTINGS. Prints a table; the chosen setting goes into src/providers/stt/sphinx-model.ts.
 */
import os from 'node:os';
import path from 'node:path';
import { GENERAL_MODEL_ROOT, languageModel } from '../../src/providers/stt/sphinx-model.js';
import { spokenWords } from '../../src/eval/spoken.js';
import { median, percentile } from '../lib/stats.js';
import { benchCalls, wordErrorRate } from './calls.js';
import { decodeWav, type DecodeSettings } from './decode.js';
import { telephoneWav, type Voice } from './render.js';

const general = {
  lm: path.join(GENERAL_MODEL_ROOT, 'en-us.lm.bin'),
  dict: path.join(GENERAL_MODEL_ROOT, 'cmudict-en-us.dict'),
};
const calls = languageModel();
const tel = { fill: 0, telephoneMeans: true };
const fill = (rms: number) => ({ fill: rms, telephoneMeans: false });
const fast = ['-beam', '1e-40', '-wbeam', '1e-24', '-pbeam', '1e-40', '-maxhmmpf', '10000'];
const SETTINGS: Record<string, DecodeSettings> = {
  'general, telephone means': { ...general, ...tel, args: [] },
  'calls, telephone means': { ...calls, ...tel, args: [] },
  'calls, telephone means, lw 10': { ...calls, ...tel, args: ['-lw', '10'] },
  'calls, fill 130': { ...calls, ...fill(130), args: [] },
  'calls, fill 250': { ...calls, ...fill(250), args: [] },
  'calls, fill 130, lw 10': { ...calls, ...fill(130), args: ['-lw', '10'] },
  'calls, fill 250, lw 10': { ...calls, ...fill(250), args: ['-lw', '10'] },
  'calls, fill 130, lw 10, fast': { ...calls, ...fill(130), args: ['-lw', '10', ...fast] },
};

const argv = process.argv.slice(2);
const nAt = argv.indexOf('--calls');
const n = nAt >= 0 ? Number(argv.splice(nAt, 2)[1]) : 12;
const names = argv.length ? argv : Object.keys(SETTINGS);
const voices: Voice[] = ['flite-slt', 'flite-rms'];
const cache = path.join(os.tmpdir(), 'voice-shield-speech');
const tuning = benchCalls('calibration', [4, 2, 1, 1, 3, 2]).slice(0, n);

async function pool<T>(items: T[], width: number, fn: (t: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let t = queue.shift(); t !== undefined; t = queue.shift()) await fn(t);
    }),
  );
}

console.log(`| setting | median WER | p90 WER | calls × voices |\n|---|---|---|---|`);
for (const name of names) {
  const s = SETTINGS[name];
  if (!s) throw new Error(`unknown setting ${name}`);
  const wers: number[] = [];
  const jobs = tuning.flatMap((c) => voices.map((v) => ({ c, v })));
  await pool(jobs, 2, async ({ c, v }) => {
    const wav = telephoneWav(cache, v, c.spoken, { codec: 'mulaw' });
    const hyp = await decodeWav(wav, s);
    wers.push(wordErrorRate(c.words, spokenWords(hyp)));
  });
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  console.log(`| ${name} | ${pct(median(wers))} | ${pct(percentile(wers, 90))} | ${wers.length} |`);
}
