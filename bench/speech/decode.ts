/*
 * The embedded recogniser run directly on a telephone WAV, the way the node runs it (same models,
 * resampler, telephone means and band fill) but with settings that can be varied: the tuning sweep's
 * decoder. The scan benchmark itself goes through the node.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { from, lastValueFrom, toArray } from 'rxjs';
import { resample } from '../../operators/resample.js';
import { parseWav, wavToMono } from '../../src/audio/wav.js';
import { bandFill } from '../../src/providers/stt/band-fill.js';
import { detectSphinx } from '../../src/providers/stt/sphinx.js';

const TELEPHONE_CMN = '56,32,-40,42,-33,15,-10,-22,7,-17,7,-8,-1';

export interface DecodeSettings {
  lm: string;
  dict: string;
  /** Band-fill noise RMS; 0 for none. */
  fill: number;
  /** Start from telephone-band cepstral means rather than the model's own. */
  telephoneMeans: boolean;
  args: string[];
}

let telParams: string | undefined;
function telephoneParams(hmm: string): string {
  if (!telParams) {
    telParams = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tune-')), 'feat.params');
    const p = fs.readFileSync(path.join(hmm, 'feat.params'), 'utf8');
    fs.writeFileSync(telParams, p.replace(/^-cmninit .*$/m, `-cmninit ${TELEPHONE_CMN}`));
  }
  return telParams;
}

export async function decodeWav(wav: Buffer, s: DecodeSettings): Promise<string> {
  const install = detectSphinx();
  if (!install) throw new Error('pocketsphinx is not installed');
  const info = parseWav(wav);
  const mono = wavToMono(info);
  const step = info.sampleRate / 10;
  const pieces: Int16Array[] = [];
  for (let i = 0; i < mono.length; i += step) pieces.push(mono.subarray(i, i + step));
  const up = await lastValueFrom(from(pieces).pipe(resample(info.sampleRate, 16_000), toArray()));
  const fill = s.fill > 0 ? bandFill(s.fill) : (x: Int16Array) => x;
  const args = ['-logfn', '/dev/null', '-infile', '/dev/stdin', '-hmm', install.hmm, '-lm', s.lm, '-dict', s.dict];
  args.push(
    '-samprate',
    '16000',
    ...(s.telephoneMeans ? ['-featparams', telephoneParams(install.hmm)] : []),
    ...s.args,
  );
  const child = spawn('/bin/sh', ['-c', 'cat | "$0" "$@"', install.binary, ...args], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let text = '';
  child.stdout.setEncoding('utf8').on('data', (t: string) => (text += t));
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () => resolve());
  });
  for (const p of up) {
    const f = fill(p);
    child.stdin.write(new Uint8Array(f.buffer, f.byteOffset, f.byteLength));
  }
  child.stdin.end();
  await done;
  return text.replace(/\s+/g, ' ').trim();
}
