/*
 * Recogniser output of the tuning calls, for tuning the rules on what speech recognition writes.
 *
 * The calibration split's calls (never the report calls of speech.ts) read by the tuning voices
 * (flite slt and rms), through a telephone channel (8 kHz G.711 μ-law), scanned by a real node as
 * audio and as text. Writes one JSON line per call and voice: the reference words, what the node
 * recognised, and both verdicts. `--snr DB` adds white noise at that signal-to-noise ratio, as the
 * benchmark's noisy condition does, so the rules can be checked on what a noisy line leaves of a call.
 *
 *   npx tsx bench/speech/recognised.ts [--out FILE] [--calls N] [--snr DB]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, stopServer } from '../lib/procs.js';
import { benchCalls } from './calls.js';
import { telephoneWav, type Voice } from './render.js';
import { pool, scan } from './scan.js';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: string): string => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? argv[at + 1]! : dflt;
};
const out = opt('out', path.join(os.tmpdir(), 'voice-shield-recognised.jsonl'));
const limit = Number(opt('calls', '1000'));
const snr = argv.includes('--snr') ? Number(opt('snr', '')) : undefined;
if (snr !== undefined && !Number.isFinite(snr)) throw new Error('--snr needs a number of dB');
const voices: Voice[] = ['flite-slt', 'flite-rms'];
const cache = path.join(os.tmpdir(), 'voice-shield-speech');
// [robocall, sgd, taskmaster4, switchboard, fixture scams, fixture hard negatives]
const calls = benchCalls('calibration', [24, 4, 3, 4, 14, 10]).slice(0, limit);

const { server, url, key } = await startServer('node', { BENCH_STT: 'auto' });
const base = url.replace('ws:', 'http:');
fs.writeFileSync(out, '');
try {
  const jobs = calls.flatMap((call) => voices.map((voice) => ({ call, voice })));
  let done = 0;
  await pool(jobs, 2, async ({ call, voice }) => {
    const text = await scan(base, key, { transcript: call.transcript });
    const wav = telephoneWav(cache, voice, call.spoken, {
      codec: 'mulaw',
      ...(snr === undefined ? {} : { snrDb: snr }),
    });
    const audio = await scan(base, key, { audio_base64: wav.toString('base64'), encoding: 'wav', language: 'en-US' });
    const line = {
      id: call.id,
      label: call.label,
      voice,
      reference: call.spoken,
      recognised: audio.transcript,
      text: text.verdict,
      audio: audio.verdict,
    };
    fs.appendFileSync(out, `${JSON.stringify(line)}\n`);
    console.error(
      `[recognised] ${++done}/${jobs.length} ${call.id} ${voice}: ${text.verdict.level} → ${audio.verdict.level}`,
    );
  });
} finally {
  await stopServer(server);
}
console.log(out);
