/*
 * The speech side of the audio simulation: the scammer's lines rendered by Debian's voices and put
 * through a telephone channel (300–3400 Hz, 8 kHz, G.711 mu-law), and the persona's mu-law audio
 * recognised back offline with PocketSphinx, as the scammer's ear.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** flite's built-in voices and festival's HTS voice: male and female, two synthesis methods. */
export const SCAMMER_VOICES = ['rms', 'festival-slt-hts', 'awb', 'kal16', 'slt'] as const;
export type ScammerVoice = (typeof SCAMMER_VOICES)[number];

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'honeypot-audio-'));
let seq = 0;

/** `text` spoken by `voice`, as 8 kHz mu-law bytes through a telephone band-pass. */
export async function renderLine(text: string, voice: ScammerVoice): Promise<Buffer> {
  const n = seq++;
  const wav = path.join(tmp, `s${n}.wav`);
  const ul = path.join(tmp, `s${n}.ul`);
  if (voice === 'festival-slt-hts') {
    const txt = path.join(tmp, `s${n}.txt`);
    fs.writeFileSync(txt, text);
    await run('text2wave', ['-eval', '(voice_cmu_us_slt_arctic_hts)', '-o', wav, txt], { timeout: 120_000 });
    fs.rmSync(txt, { force: true });
  } else {
    await run('flite', ['-voice', voice, '-t', text, '-o', wav], { timeout: 60_000 });
  }
  await run('sox', [wav, '-t', 'ul', '-r', '8000', '-c', '1', ul, 'sinc', '300-3400', 'rate', '8000'], {
    timeout: 60_000,
  });
  const out = fs.readFileSync(ul);
  fs.rmSync(wav, { force: true });
  fs.rmSync(ul, { force: true });
  return out;
}

/** What PocketSphinx (offline, its stock US English model) hears in 8 kHz mu-law audio. */
export async function recognise(mulaw: Buffer): Promise<string> {
  const n = seq++;
  const ul = path.join(tmp, `p${n}.ul`);
  const wav = path.join(tmp, `p${n}.wav`);
  fs.writeFileSync(ul, mulaw);
  try {
    await run('sox', ['-t', 'ul', '-r', '8000', '-c', '1', ul, '-r', '16000', '-b', '16', '-e', 'signed', wav]);
    const { stdout } = await run('pocketsphinx_continuous', ['-infile', wav, '-logfn', '/dev/null'], {
      timeout: 300_000,
      maxBuffer: 1 << 20,
    });
    return stdout
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .join(' ');
  } finally {
    fs.rmSync(ul, { force: true });
    fs.rmSync(wav, { force: true });
  }
}

/** Word error rate of `hyp` against `ref` (lower-cased, punctuation dropped). */
export function wordErrorRate(ref: string, hyp: string): number {
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9' ]+/g, ' ')
      .split(/\s+/)
      .filter(Boolean);
  const r = norm(ref);
  const h = norm(hyp);
  if (!r.length) return h.length ? 1 : 0;
  let prev = Array.from({ length: h.length + 1 }, (_, j) => j);
  for (let i = 1; i <= r.length; i++) {
    const cur = [i];
    for (let j = 1; j <= h.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (r[i - 1] === h[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[h.length]! / r.length;
}
