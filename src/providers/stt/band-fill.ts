/*
 * Comfort noise in the empty upper band of telephone audio. The acoustic model was trained on wideband
 * speech: its filter bank reaches 6.8 kHz, and telephone audio resampled to 16 kHz has nothing above
 * 4 kHz, so the upper cepstral bands take values the model never saw and recognition collapses. A
 * faint, steady noise in 4.2–8 kHz (below the speech band's level, outside its frequencies) puts those
 * bands back in range: on the tuning voices word error fell by about half (docs/speech-model.md).
 *
 * Deterministic (fixed seed), so the same call always decodes the same way.
 */

/** Noise RMS in 16-bit sample units (about −48 dBFS), chosen on the tuning voices. */
export const BAND_FILL_RMS = 130;
const TAPS = 31;

/** A high-pass FIR (4.2–8 kHz at 16 kHz): a windowed-sinc low-pass at 3.8 kHz shifted up by half the rate. */
function highPass(): Float64Array {
  const fc = 3800 / 16000;
  const h = new Float64Array(TAPS);
  const mid = (TAPS - 1) / 2;
  for (let i = 0; i < TAPS; i++) {
    const x = i - mid;
    const sinc = x === 0 ? 2 * fc : Math.sin(2 * Math.PI * fc * x) / (Math.PI * x);
    const hann = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (TAPS - 1));
    h[i] = sinc * hann * (i % 2 === 0 ? 1 : -1);
  }
  return h;
}

/** Returns a function that adds the noise to successive 16 kHz chunks of one stream. */
export function bandFill(rms: number = BAND_FILL_RMS): (chunk: Int16Array) => Int16Array {
  const h = highPass();
  let gain = 0;
  for (const v of h) gain += v * v;
  // Uniform white noise has RMS 1/√3; the filter passes √gain of it.
  const scale = (rms * Math.sqrt(3)) / Math.sqrt(gain);
  const history = new Float64Array(TAPS);
  let pos = 0;
  let seed = 0x2545f491;
  return (chunk) => {
    const out = new Int16Array(chunk.length);
    for (let n = 0; n < chunk.length; n++) {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      history[pos] = (seed >>> 0) / 0x80000000 - 1;
      let y = 0;
      for (let k = 0; k < TAPS; k++) y += h[k]! * history[(pos - k + TAPS) % TAPS]!;
      pos = (pos + 1) % TAPS;
      const v = chunk[n]! + y * scale;
      out[n] = v > 32767 ? 32767 : v < -32768 ? -32768 : Math.round(v);
    }
    return out;
  };
}
