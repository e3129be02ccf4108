/*
 * Steady background noise taken out of one utterance before recognition: a short-time Wiener filter
 * (decision-directed a-priori SNR) with the noise spectrum measured on the utterance's own quietest
 * frames (the VAD keeps a pre-roll and a hang-over of each pause, so there are always some). Line hiss
 * and fan-like noise fill the spectral valleys the acoustic model relies on; the recogniser's own
 * mel-domain subtraction takes only part of it.
 */
import { fft } from './fft.js';

export interface DenoiseOptions {
  /** Lowest gain (spectral floor); keeps the residual noise smooth rather than "musical". */
  floor?: number;
  /** Share of the utterance's frames, the quietest, that the noise spectrum is measured on. */
  quietShare?: number;
  /** Weight of the previous frame's clean estimate in the a-priori SNR (0–1). */
  smoothing?: number;
  /** Noise estimate scaled by this before use (over-subtraction above 1). */
  overSubtract?: number;
  /** FFT size (a power of two); 512 is 32 ms at 16 kHz. */
  size?: number;
  /**
   * Left as it is when the quiet frames lie more than this many dB below the utterance's mean frame
   * energy: the line is clean, and what the quiet frames hold is speech, not noise.
   */
  gateDb?: number;
}

export function suppressNoise(pcm: Int16Array, o: DenoiseOptions = {}): Int16Array {
  const size = o.size ?? 512;
  const floor = o.floor ?? 0.1;
  const quietShare = o.quietShare ?? 0.1;
  const a = o.smoothing ?? 0.98;
  const over = o.overSubtract ?? 1;
  const hop = size / 2;
  const bins = size / 2 + 1;
  // √Hann on analysis and synthesis: at half overlap the squared windows sum to one.
  const win = new Float64Array(size);
  for (let i = 0; i < size; i++) win[i] = Math.sqrt(0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size));
  const frames = Math.ceil(pcm.length / hop) + 1;
  const re: Float64Array[] = [];
  const im: Float64Array[] = [];
  const power: Float64Array[] = [];
  const energy = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    const r = new Float64Array(size);
    const m = new Float64Array(size);
    const start = (f - 1) * hop;
    for (let i = 0; i < size; i++) {
      const t = start + i;
      r[i] = t >= 0 && t < pcm.length ? pcm[t]! * win[i]! : 0;
    }
    fft(r, m);
    const p = new Float64Array(bins);
    for (let k = 0; k < bins; k++) {
      p[k] = r[k]! * r[k]! + m[k]! * m[k]!;
      energy[f] = energy[f]! + p[k]!;
    }
    re.push(r);
    im.push(m);
    power.push(p);
  }
  // Frames half outside the utterance are quiet only because they are short: not noise samples.
  const inner = [...Array(frames).keys()].filter((f) => f > 1 && f < frames - 2);
  const pool = inner.length ? inner : [...Array(frames).keys()];
  pool.sort((x, y) => energy[x]! - energy[y]!);
  const quiet = pool.slice(0, Math.max(1, Math.round(pool.length * quietShare)));
  const noise = new Float64Array(bins);
  for (const f of quiet) for (let k = 0; k < bins; k++) noise[k] = noise[k]! + power[f]![k]! / quiet.length;
  for (let k = 0; k < bins; k++) noise[k] = Math.max(noise[k]! * over, 1e-3);
  const mean = (fs: number[]): number => fs.reduce((n, f) => n + energy[f]!, 0) / fs.length;
  const noiseDb = 10 * Math.log10(Math.max(mean(quiet), 1e-9) / Math.max(mean(pool), 1e-9));
  if (o.gateDb !== undefined && noiseDb < -o.gateDb) return pcm.slice();

  const out = new Float64Array(pcm.length + size);
  const prevClean = new Float64Array(bins);
  for (let f = 0; f < frames; f++) {
    const r = re[f]!;
    const m = im[f]!;
    const p = power[f]!;
    for (let k = 0; k < bins; k++) {
      const post = p[k]! / noise[k]!;
      const prior = a * (prevClean[k]! / noise[k]!) + (1 - a) * Math.max(post - 1, 0);
      const g = Math.max(prior / (1 + prior), floor);
      prevClean[k] = g * g * p[k]!;
      r[k] = r[k]! * g;
      m[k] = m[k]! * g;
      if (k > 0 && k < size / 2) {
        r[size - k] = r[k]!;
        m[size - k] = -m[k]!;
      }
    }
    // Inverse by the conjugate trick: conj → forward FFT → conj, / n.
    for (let i = 0; i < size; i++) m[i] = -m[i]!;
    fft(r, m);
    const start = (f - 1) * hop;
    for (let i = 0; i < size; i++) {
      const t = start + i;
      if (t >= 0 && t < pcm.length) out[t] = out[t]! + (r[i]! / size) * win[i]!;
    }
  }
  const res = new Int16Array(pcm.length);
  for (let t = 0; t < pcm.length; t++) {
    const v = Math.round(out[t]!);
    res[t] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
  }
  return res;
}
