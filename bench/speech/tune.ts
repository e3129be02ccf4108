/*
 * Tuning sweep for the embedded recogniser: word error rate of decoder settings on the tuning calls
 * (calibration split) spoken by the tuning voices (flite slt and rms), G.711 μ-law, clean and with white
 * noise at 15 dB SNR (rendered as the spoken benchmark renders its noisy condition), and the decoder's
 * CPU time per second of speech. Never run on the report calls or voices.
 * `npx tsx bench/speech/tune.ts [--calls N] [setting …]`, settings by name: see settings.ts. Prints a
 * table (`--dump FILE`: reference and recognised text per call, as JSON lines); the chosen setting goes into src/providers/stt/sphinx-model.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spokenWords } from '../../src/eval/spoken.js';
import { median } from '../lib/stats.js';
import { benchCalls, wordErrorRate } from './calls.js';
import { decodeCalls, utterances } from './decode.js';
import { telephoneWav, type Channel, type Voice } from './render.js';
import { SETTINGS } from './settings.js';

const argv = process.argv.slice(2);
const nAt = argv.indexOf('--calls');
const n = nAt >= 0 ? Number(argv.splice(nAt, 2)[1]) : 12;
const dumpAt = argv.indexOf('--dump');
const dump = dumpAt >= 0 ? argv.splice(dumpAt, 2)[1] : undefined;
if (dump) fs.writeFileSync(dump, '');
const maxAt = argv.indexOf('--max-utterance-ms');
const seg = maxAt >= 0 ? { maxUtteranceMs: Number(argv.splice(maxAt, 2)[1]) } : {};
const names = argv.length ? argv : Object.keys(SETTINGS);
const voices: Voice[] = ['flite-slt', 'flite-rms'];
const channels: Channel[] = [{ codec: 'mulaw' }, { codec: 'mulaw', snrDb: 15 }];
const cache = path.join(os.tmpdir(), 'voice-shield-speech');
const tuning = benchCalls('calibration', [4, 2, 1, 1, 3, 2]).slice(0, n);

// Each condition's calls cut into utterances once; every setting decodes the same cuts.
const conditions = await Promise.all(
  channels.map(async (channel) => {
    const jobs = tuning.flatMap((c) => voices.map((v) => ({ c, v })));
    const utts = await Promise.all(jobs.map(({ c, v }) => utterances(telephoneWav(cache, v, c.spoken, channel), seg)));
    return { jobs, utts };
  }),
);

const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
console.log(
  `| setting | clean median WER | clean pooled WER | 15 dB median WER | 15 dB pooled WER | CPU s per speech s |\n` +
    `|---|---|---|---|---|---|`,
);
for (const name of names) {
  const s = SETTINGS[name];
  if (!s) throw new Error(`unknown setting ${name}`);
  const cells: string[] = [];
  let cpu = 0;
  let speech = 0;
  for (const [k, { jobs, utts }] of conditions.entries()) {
    const d = await decodeCalls(utts, s);
    cpu += d.cpuSeconds;
    speech += d.speechSeconds;
    let errors = 0;
    let words = 0;
    const wers = jobs.map(({ c }, i) => {
      const wer = wordErrorRate(c.words, spokenWords(d.texts[i]!));
      errors += wer * c.words.length;
      const line = { setting: name, channel: channels[k], voice: jobs[i]!.v, id: c.id, wer, reference: c.spoken };
      if (dump) fs.appendFileSync(dump, `${JSON.stringify({ ...line, recognised: d.texts[i] })}\n`);
      words += c.words.length;
      return wer;
    });
    cells.push(pct(median(wers)), pct(errors / words));
  }
  console.log(`| ${name} | ${cells.join(' | ')} | ${(cpu / speech).toFixed(3)} |`);
}
