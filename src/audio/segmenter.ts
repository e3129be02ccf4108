/*
 * Cuts a continuous PCM stream into utterances: speech opens an utterance after a short voiced run,
 * a silence longer than the hang-over closes it. A little audio before the onset is kept (pre-roll)
 * so the first consonant is not clipped; very long speech is cut at a maximum length.
 */
import { VoiceActivityDetector, type VadMode } from './vad.js';

export interface SegmenterOptions {
  sampleRate: number;
  /** VAD sensitivity: 0 counts the most audio as speech, 3 the least. Default 2. */
  mode?: VadMode;
  /** Silence that ends an utterance. Default 600 ms. */
  hangoverMs?: number;
  /** Voiced run that starts one. Default 60 ms. */
  onsetMs?: number;
  /** Audio kept from before the onset. Default 240 ms. */
  preRollMs?: number;
  /** Utterances with less voiced audio than this are dropped as noise. Default 200 ms. */
  minSpeechMs?: number;
  /** Longer speech is cut here and continues in the next utterance. Default 15 s. */
  maxUtteranceMs?: number;
}

const FRAME_MS = 20;

/** A growable sample buffer reused across utterances. */
class SampleBuffer {
  data: Int16Array;
  length = 0;
  constructor(capacity: number) {
    this.data = new Int16Array(capacity);
  }
  append(src: Int16Array): void {
    if (this.length + src.length > this.data.length) {
      const grown = new Int16Array(Math.max(this.length + src.length, this.data.length * 2));
      grown.set(this.data.subarray(0, this.length));
      this.data = grown;
    }
    this.data.set(src, this.length);
    this.length += src.length;
  }
  take(): Int16Array {
    const out = this.data.slice(0, this.length);
    this.length = 0;
    return out;
  }
  /** The first `n` samples; the rest stay, moved to the front. */
  takeFirst(n: number): Int16Array {
    const out = this.data.slice(0, n);
    this.data.copyWithin(0, n, this.length);
    this.length -= n;
    return out;
  }
}

export class Segmenter {
  private readonly vad: VoiceActivityDetector;
  private readonly frameLength: number;
  private readonly onsetFrames: number;
  private readonly hangoverFrames: number;
  private readonly minSpeechFrames: number;
  private readonly maxFrames: number;
  /** Frames before an onset, as a ring. */
  private readonly preRoll: Int16Array;
  private readonly preRollFrames: number;
  private preRollHead = 0;
  private preRollCount = 0;
  /** Partial frame left over from the last chunk. */
  private readonly pending: Int16Array;
  private pendingLength = 0;
  private readonly utterance: SampleBuffer;
  /** Energy and voicing of each frame of the utterance in progress (its length in frames), for cutting long speech. */
  private frameEnergy: number[] = [];
  private frameVoiced: boolean[] = [];
  /** Frames at the end of a too-long utterance searched for its quietest point. */
  private readonly cutSearchFrames: number;

  private inSpeech = false;
  private voicedRun = 0;
  private silentRun = 0;
  private voicedFrames = 0;

  constructor(opts: SegmenterOptions) {
    this.vad = new VoiceActivityDetector(opts.sampleRate, opts.mode ?? 2);
    this.frameLength = this.vad.frameLength;
    const frames = (ms: number): number => Math.max(1, Math.round(ms / FRAME_MS));
    this.onsetFrames = frames(opts.onsetMs ?? 60);
    this.hangoverFrames = frames(opts.hangoverMs ?? 600);
    this.minSpeechFrames = frames(opts.minSpeechMs ?? 200);
    this.maxFrames = frames(opts.maxUtteranceMs ?? 15_000);
    this.cutSearchFrames = Math.min(frames(2000), Math.floor(this.maxFrames / 4));
    this.preRollFrames = Math.max(this.onsetFrames, frames(opts.preRollMs ?? 240));
    this.preRoll = new Int16Array(this.preRollFrames * this.frameLength);
    this.pending = new Int16Array(this.frameLength);
    this.utterance = new SampleBuffer(opts.sampleRate * 4);
  }

  /** Feeds samples; returns the utterances they completed (usually none). */
  push(samples: Int16Array): Int16Array[] {
    const done: Int16Array[] = [];
    let i = 0;
    if (this.pendingLength > 0) {
      const need = Math.min(this.frameLength - this.pendingLength, samples.length);
      this.pending.set(samples.subarray(0, need), this.pendingLength);
      this.pendingLength += need;
      i = need;
      if (this.pendingLength < this.frameLength) return done;
      this.frame(this.pending, done);
      this.pendingLength = 0;
    }
    for (; i + this.frameLength <= samples.length; i += this.frameLength) {
      this.frame(samples.subarray(i, i + this.frameLength), done);
    }
    if (i < samples.length) {
      this.pending.set(samples.subarray(i));
      this.pendingLength = samples.length - i;
    }
    return done;
  }

  /** End of stream: the utterance in progress, if it holds enough speech. */
  end(): Int16Array[] {
    const done: Int16Array[] = [];
    if (this.inSpeech) {
      if (this.pendingLength > 0) this.utterance.append(this.pending.subarray(0, this.pendingLength));
      this.close(done);
    }
    this.pendingLength = 0;
    return done;
  }

  destroy(): void {
    this.vad.destroy();
  }

  private frame(frame: Int16Array, done: Int16Array[]): void {
    const voiced = this.vad.isSpeech(frame);
    if (!this.inSpeech) {
      this.remember(frame);
      this.voicedRun = voiced ? this.voicedRun + 1 : 0;
      if (this.voicedRun >= this.onsetFrames) this.open();
      return;
    }
    this.utterance.append(frame);
    this.note(frame, voiced);
    if (voiced) {
      this.voicedFrames += 1;
      this.silentRun = 0;
    } else {
      this.silentRun += 1;
    }
    if (this.silentRun >= this.hangoverFrames) {
      this.close(done);
    } else if (this.frameEnergy.length >= this.maxFrames) {
      this.cutLong(done);
    }
  }

  private note(frame: Int16Array, voiced: boolean): void {
    let e = 0;
    for (let i = 0; i < frame.length; i++) e += frame[i]! * frame[i]!;
    this.frameEnergy.push(e);
    this.frameVoiced.push(voiced);
  }

  /**
   * The speaker is still talking at the maximum length: cut at the quietest point of its last stretch
   * (a pause too short for the hang-over, or a stop consonant) and carry the rest into the next
   * utterance, rather than cutting through a word the recogniser would then lose on both sides.
   */
  private cutLong(done: Int16Array[]): void {
    const n = this.frameEnergy.length;
    const quiet = (j: number): number =>
      this.frameEnergy[j - 1]! + this.frameEnergy[j]! + (this.frameEnergy[j + 1] ?? this.frameEnergy[j]!);
    let at = n - 1;
    for (let j = n - 1; j >= Math.max(1, n - this.cutSearchFrames); j--) if (quiet(j) < quiet(at)) at = j;
    const voicedBefore = this.frameVoiced.slice(0, at).filter(Boolean).length;
    const audio = this.utterance.takeFirst(at * this.frameLength);
    if (voicedBefore >= this.minSpeechFrames) done.push(audio);
    this.frameEnergy = this.frameEnergy.slice(at);
    this.frameVoiced = this.frameVoiced.slice(at);
    this.voicedFrames = this.voicedFrames - voicedBefore;
    const lastVoiced = this.frameVoiced.lastIndexOf(true);
    this.silentRun = this.frameEnergy.length - 1 - lastVoiced;
  }

  private remember(frame: Int16Array): void {
    this.preRoll.set(frame, this.preRollHead * this.frameLength);
    this.preRollHead = (this.preRollHead + 1) % this.preRollFrames;
    this.preRollCount = Math.min(this.preRollCount + 1, this.preRollFrames);
  }

  private open(): void {
    this.inSpeech = true;
    const first = (this.preRollHead - this.preRollCount + this.preRollFrames) % this.preRollFrames;
    for (let k = 0; k < this.preRollCount; k++) {
      const f = (first + k) % this.preRollFrames;
      const frame = this.preRoll.subarray(f * this.frameLength, (f + 1) * this.frameLength);
      this.utterance.append(frame);
      // The onset's voiced run is the pre-roll's last frames.
      this.note(frame, k >= this.preRollCount - this.voicedRun);
    }
    this.voicedFrames = this.voicedRun;
    this.silentRun = 0;
    this.preRollCount = 0;
    this.voicedRun = 0;
  }

  private close(done: Int16Array[]): void {
    const audio = this.utterance.take();
    if (this.voicedFrames >= this.minSpeechFrames) done.push(audio);
    this.inSpeech = false;
    this.voicedFrames = 0;
    this.silentRun = 0;
    this.frameEnergy = [];
    this.frameVoiced = [];
  }
}
