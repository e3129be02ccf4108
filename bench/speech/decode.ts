/*
 * The embedded recogniser run on telephone WAVs the way the node's scan path runs it, with settings
 * that can be varied: the tuning sweep's decoder. Same resampler, VAD cut (the node's default
 * segmenter), band fill per utterance and `pocketsphinx_batch` on warm processes (one per core); what
 * varies is the decoder's flags, its feature parameters and the fill. Reports the decoder's own CPU
 * time, so a setting's cost is measured with its accuracy. The scan benchmark itself goes through the node.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { from, lastValueFrom, toArray } from 'rxjs';
import { resample } from '../../operators/resample.js';
import { segment, type SegmenterOptions } from '../../operators/segment.js';
import { spokenNumbersToDigits } from '../../src/audio/spoken-numbers.js';
import { parseWav, wavToMono } from '../../src/audio/wav.js';
import { bandFill } from '../../src/providers/stt/band-fill.js';
import { detectSphinx } from '../../src/providers/stt/sphinx.js';
import { DEFAULT_TUNING } from '../../src/tuning.js';

export interface DecodeSettings {
  lm: string;
  dict: string;
  /** Band-fill noise RMS; 0 for none. */
  fill: number;
  /** Lines of the model's feat.params replaced (`-cmninit`, `-varnorm` …): they win over flags. */
  feat: Record<string, string>;
  /** Decoder flags after the models (the node's DECODER_ARGS and search settings). */
  args: readonly string[];
  /** Applied to each 16 kHz utterance before the fill (a front-end step under test). */
  pre?: (utterance: Int16Array) => Int16Array;
}

export interface Decoded {
  /** Per call, the recognised text as the node would write it. */
  texts: string[];
  speechSeconds: number;
  /** CPU seconds of the decoder processes. */
  cpuSeconds: number;
}

/** 16 kHz utterances of one 8 kHz telephone WAV, as the node's scan path cuts them. */
export async function utterances(wav: Buffer, seg: Partial<SegmenterOptions> = {}): Promise<Int16Array[]> {
  const info = parseWav(wav);
  const mono = wavToMono(info);
  const step = info.sampleRate / 10;
  const pieces: Int16Array[] = [];
  for (let i = 0; i < mono.length; i += step) pieces.push(mono.subarray(i, i + step));
  const opts = { ...DEFAULT_TUNING.segmenter, ...seg, sampleRate: 16_000 };
  return lastValueFrom(from(pieces).pipe(resample(info.sampleRate, 16_000), segment(opts), toArray()));
}

function featParams(hmm: string, dir: string, feat: Record<string, string>): string {
  let p = fs.readFileSync(path.join(hmm, 'feat.params'), 'utf8');
  for (const [k, v] of Object.entries(feat)) {
    const line = new RegExp(`^-${k} .*$`, 'm');
    p = line.test(p) ? p.replace(line, `-${k} ${v}`) : `${p.trimEnd()}\n-${k} ${v}\n`;
  }
  const file = path.join(dir, 'feat.params');
  fs.writeFileSync(file, p);
  return file;
}

function run(binary: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${binary} exit ${code}`))));
  });
}

/** Decodes every call's utterances on `width` decoder processes. */
export async function decodeCalls(calls: Int16Array[][], s: DecodeSettings, width = 2): Promise<Decoded> {
  const install = detectSphinx();
  if (!install) throw new Error('pocketsphinx is not installed');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tune-'));
  try {
    const names: string[][] = calls.map((utts, c) =>
      utts.map((u, i) => {
        const name = `c${c}u${i}`;
        const pre = s.pre ? s.pre(u) : u;
        const pcm = s.fill > 0 ? bandFill(s.fill)(pre) : pre;
        fs.writeFileSync(path.join(dir, `${name}.raw`), new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength));
        return name;
      }),
    );
    const all = names.flat();
    const params = featParams(install.hmm, dir, s.feat);
    const model = ['-hmm', install.hmm, '-lm', s.lm, '-dict', s.dict, ...s.args, '-samprate', '16000'];
    await Promise.all(
      Array.from({ length: width }, (_, w) => {
        fs.writeFileSync(path.join(dir, `${w}.ctl`), all.filter((_, i) => i % width === w).join('\n') + '\n');
        return run(install.batchBinary, [
          ...model,
          '-featparams',
          params,
          '-adcin',
          'yes',
          '-cepdir',
          dir,
          '-cepext',
          '.raw',
          '-ctl',
          path.join(dir, `${w}.ctl`),
          '-hyp',
          path.join(dir, `${w}.hyp`),
          '-logfn',
          path.join(dir, `${w}.log`),
        ]);
      }),
    );
    const hyp = new Map<string, string>();
    let cpuSeconds = 0;
    let speechSeconds = 0;
    for (let w = 0; w < width; w++) {
      for (const line of fs.readFileSync(path.join(dir, `${w}.hyp`), 'utf8').split('\n')) {
        const m = /^(.*?) ?\((\S+) (-?\d+)\)$/.exec(line.trim());
        if (m) hyp.set(m[2]!, m[1]!.trim());
      }
      const log = fs.readFileSync(path.join(dir, `${w}.log`), 'utf8');
      const total = /TOTAL ([\d.]+) seconds speech, ([\d.]+) seconds CPU/.exec(log);
      if (total) {
        speechSeconds += Number(total[1]);
        cpuSeconds += Number(total[2]);
      }
    }
    // Numbers are written per utterance, as the node's transcribe step does.
    const texts = names.map((ns) =>
      ns
        .map((n) => hyp.get(n) ?? '')
        .filter(Boolean)
        .map((t) => spokenNumbersToDigits(t, 'en-US'))
        .join(' '),
    );
    return { texts, speechSeconds, cpuSeconds };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
