import { concatMap, map, of, type OperatorFunction } from 'rxjs';
import type { SpeechToText, SttOptions, SttResult } from '../src/providers/stt/types.js';
import { spokenNumbersToDigits } from '../src/audio/spoken-numbers.js';

export interface TranscribeOptions {
  language?: string;
  /** Rate of the audio before resampling. */
  sourceRate?: number;
  /** Who waits for the text (a running call, the default, or a scan). */
  priority?: SttOptions['priority'];
}

/**
 * PCM at the recogniser's rate → recognition results. A recogniser that wants utterances gets one
 * request per utterance, in order; a streaming one gets the whole stream. Final text has spoken
 * numbers written as digits ("two oh two five five five" → "202555").
 */
export function transcribe(stt: SpeechToText, opts: TranscribeOptions = {}): OperatorFunction<Int16Array, SttResult> {
  const sttOpts: SttOptions = { sampleRate: stt.sampleRate };
  if (opts.language) sttOpts.language = opts.language;
  if (opts.sourceRate) sttOpts.sourceRate = opts.sourceRate;
  if (opts.priority) sttOpts.priority = opts.priority;
  const written = map((r: SttResult): SttResult =>
    r.final ? { ...r, text: spokenNumbersToDigits(r.text, opts.language) } : r,
  );
  return (pcm$) =>
    stt.wantsSegments
      ? pcm$.pipe(
          concatMap((utterance) => stt.transcribe(of(utterance), sttOpts)),
          written,
        )
      : stt.transcribe(pcm$, sttOpts).pipe(written);
}
