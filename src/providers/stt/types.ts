import type { Observable } from 'rxjs';
import type { CallSlots } from './call-slots.js';

export interface SttOptions {
  language?: string;
  /** Sample rate of the PCM the caller of `transcribe` sends (the provider's preferred `sampleRate`). */
  sampleRate: number;
  /** Rate the audio had at its source, before resampling (8000: telephone band). Lets a recogniser tune for it. */
  sourceRate?: number;
  /** Who waits for the text: a running call (`live`, the default, served first) or a scan. */
  priority?: 'live' | 'scan';
}

export interface SttResult {
  text: string;
  final: boolean;
}

/**
 * The speech-to-text port. One call of `transcribe` serves one track of one session: it takes
 * 16-bit mono PCM chunks and emits results; it completes after the audio completes and the
 * provider has flushed. Provider refusals surface as a `ProviderError` error notification.
 */
export interface SpeechToText {
  /** `<provider>:<model>`, as shown in `capabilities.stt`. */
  readonly id: string;
  /** Rate the provider wants; the resampler converts to it. */
  readonly sampleRate: number;
  /** true: feed whole utterances cut by the VAD segmenter; false: feed the continuous stream. */
  readonly wantsSegments: boolean;
  /** A recogniser on this node: how many calls it transcribes at once (absent: a remote service's business). */
  readonly slots?: CallSlots;
  /** A recogniser on this node: utterances it decodes at once, and seconds it would take now for more speech. */
  readonly local?: { parallel: number; estimateSeconds(speechSeconds: number, sourceRate?: number): number };
  transcribe(audio: Observable<Int16Array>, opts: SttOptions): Observable<SttResult>;
  close?(): Promise<void>;
}
