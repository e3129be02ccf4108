/*
 * Voice activity detection with the WebRTC VAD (libfvad compiled to WASM). It judges 10, 20 or 30 ms
 * frames at 8, 16, 32 or 48 kHz; mode 0 (least aggressive: more audio counts as speech) to 3 (most
 * aggressive: only clear speech counts).
 */
import loadFvad from '@echogarden/fvad-wasm';
import type { WithFunctions } from './wasm-module.js';
import { HeapBlock } from './wasm-module.js';

type Fvad = WithFunctions<'_fvad_new' | '_fvad_set_sample_rate' | '_fvad_set_mode' | '_fvad_process' | '_fvad_free'>;
const fvad = (await loadFvad()) as Fvad;

export const VAD_RATES: readonly number[] = [8000, 16000, 32000, 48000];
export type VadMode = 0 | 1 | 2 | 3;

export class VoiceActivityDetector {
  /** Samples per frame the detector judges (20 ms). */
  readonly frameLength: number;
  private handle: number;
  private readonly frame = new HeapBlock(fvad);

  constructor(sampleRate: number, mode: VadMode = 2) {
    if (!VAD_RATES.includes(sampleRate))
      throw new RangeError(`audio: the VAD runs at ${VAD_RATES.join(', ')} Hz, not ${sampleRate}`);
    this.handle = fvad._fvad_new();
    if (!this.handle) throw new Error('audio: cannot create a VAD instance');
    if (fvad._fvad_set_sample_rate(this.handle, sampleRate) !== 0 || fvad._fvad_set_mode(this.handle, mode) !== 0) {
      fvad._fvad_free(this.handle);
      throw new Error(`audio: VAD rejected ${sampleRate} Hz or mode ${mode}`);
    }
    this.frameLength = sampleRate / 50;
    this.frame.ensure(this.frameLength * 2);
  }

  /** Judges exactly `frameLength` samples starting at `offset`. */
  isSpeech(samples: Int16Array, offset = 0): boolean {
    if (!this.handle) throw new Error('audio: VAD used after destroy');
    const ptr = this.frame.ptr;
    fvad.HEAP16.set(samples.subarray(offset, offset + this.frameLength), ptr >> 1);
    return fvad._fvad_process(this.handle, ptr, this.frameLength) === 1;
  }

  destroy(): void {
    if (!this.handle) return;
    fvad._fvad_free(this.handle);
    this.handle = 0;
    this.frame.free();
  }
}
