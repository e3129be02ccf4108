/*
 * Sample-rate conversion with the Speex resampler (windowed-sinc, polyphase; SpeexDSP compiled to
 * WASM with SIMD). A tone above the new Nyquist rate is filtered out rather than folded back into the
 * speech band.
 *
 * Quality by direction. Lifting telephone audio (8 kHz) to the recogniser's 16 kHz uses quality 10
 * (pass band to 97.5 % of Nyquist): with the narrower pass band of lower settings the 3.6–4 kHz band
 * the recogniser relies on is lost and recognition of telephone speech measurably suffers. Bringing
 * wideband audio down to 16 kHz uses quality 7: its pass band (to about 7.5 kHz) already exceeds the
 * highest frequency the recogniser's features use (6.8 kHz), at a third of the cost.
 */
import loadSpeex from '@echogarden/speex-resampler-wasm/simd';
import type { WithFunctions } from './wasm-module.js';
import { HeapBlock } from './wasm-module.js';

type Speex = WithFunctions<
  | '_speex_resampler_init'
  | '_speex_resampler_skip_zeros'
  | '_speex_resampler_process_int'
  | '_speex_resampler_get_input_latency'
  | '_speex_resampler_destroy'
>;
const speex = (await loadSpeex()) as Speex;

export const UPSAMPLE_QUALITY = 10;
export const DOWNSAMPLE_QUALITY = 7;

export interface Resampler {
  /** Converts the next chunk; the result is a fresh array the caller owns. */
  process(input: Int16Array): Int16Array;
  /** Pushes the filter's tail out (end of stream). */
  flush(): Int16Array;
  destroy(): void;
}

class SpeexResampler implements Resampler {
  private state: number;
  private readonly input = new HeapBlock(speex);
  private readonly output = new HeapBlock(speex);
  private readonly lengths = new HeapBlock(speex);
  private destroyed = false;

  constructor(
    private readonly from: number,
    private readonly to: number,
    quality: number,
  ) {
    const err = this.lengths.ensure(8);
    this.state = speex._speex_resampler_init(1, from, to, quality, err);
    if (!this.state) throw new Error(`audio: cannot resample ${from} Hz → ${to} Hz`);
    // Output starts with the input rather than with the filter's delay line of zeros.
    speex._speex_resampler_skip_zeros(this.state);
  }

  process(input: Int16Array): Int16Array {
    if (this.destroyed) throw new Error('audio: resampler used after destroy');
    if (input.length === 0) return new Int16Array(0);
    const capacity = Math.ceil((input.length * this.to) / this.from) + 64;
    const inPtr = this.input.ensure(input.length * 2);
    const outPtr = this.output.ensure(capacity * 2);
    const lenPtr = this.lengths.ensure(8);
    speex.HEAP16.set(input, inPtr >> 1);
    const result = new Int16Array(capacity);
    let consumed = 0;
    let produced = 0;
    // One call normally takes everything; loop in case the output block fills first.
    while (consumed < input.length) {
      speex.HEAPU32[lenPtr >> 2] = input.length - consumed;
      speex.HEAPU32[(lenPtr >> 2) + 1] = capacity - produced;
      const rc = speex._speex_resampler_process_int(
        this.state,
        0,
        inPtr + consumed * 2,
        lenPtr,
        outPtr + produced * 2,
        lenPtr + 4,
      );
      if (rc !== 0) throw new Error(`audio: resampler error ${rc}`);
      const took = speex.HEAPU32[lenPtr >> 2]!;
      const gave = speex.HEAPU32[(lenPtr >> 2) + 1]!;
      consumed += took;
      produced += gave;
      if (took === 0 && gave === 0) break;
    }
    result.set(speex.HEAP16.subarray(outPtr >> 1, (outPtr >> 1) + produced));
    return produced === capacity ? result : result.subarray(0, produced);
  }

  flush(): Int16Array {
    if (this.destroyed) return new Int16Array(0);
    const latency = speex._speex_resampler_get_input_latency(this.state);
    return this.process(new Int16Array(latency));
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    speex._speex_resampler_destroy(this.state);
    this.input.free();
    this.output.free();
    this.lengths.free();
  }
}

class Passthrough implements Resampler {
  process(input: Int16Array): Int16Array {
    return input;
  }
  flush(): Int16Array {
    return new Int16Array(0);
  }
  destroy(): void {}
}

export function createResampler(
  from: number,
  to: number,
  quality = from < to ? UPSAMPLE_QUALITY : DOWNSAMPLE_QUALITY,
): Resampler {
  if (!Number.isInteger(from) || !Number.isInteger(to) || from <= 0 || to <= 0) {
    throw new RangeError(`audio: invalid rates ${from} → ${to}`);
  }
  return from === to ? new Passthrough() : new SpeexResampler(from, to, quality);
}

/** Whole-buffer conversion. */
export function resampleAll(samples: Int16Array, from: number, to: number): Int16Array {
  const r = createResampler(from, to);
  try {
    const body = r.process(samples);
    const tail = r.flush();
    const out = new Int16Array(body.length + tail.length);
    out.set(body);
    out.set(tail, body.length);
    // Trim to the exact expected length: the flush pushes out the delay line, not more audio.
    return out.subarray(0, Math.min(out.length, Math.round((samples.length * to) / from)));
  } finally {
    r.destroy();
  }
}
