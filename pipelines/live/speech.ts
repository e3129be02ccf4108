import type { Observable } from 'rxjs';
import { decode } from '../../operators/decode.js';
import { resample } from '../../operators/resample.js';
import { segment, type SegmenterOptions } from '../../operators/segment.js';
import { transcribe } from '../../operators/transcribe.js';
import { recogniserLease, type LeaseOptions } from '../../operators/recogniser-lease.js';
import type { AudioFormat, AudioFrame } from '../../src/domain/frames.js';
import type { SpeechToText, SttResult } from '../../src/providers/stt/types.js';

export interface TrackSpeechOptions {
  language?: string;
  /** VAD sensitivity and hang-over for recognisers that take utterances. */
  segmenter?: Omit<SegmenterOptions, 'sampleRate'>;
  /** How a live call waits for a slot on a recogniser that runs on this node (one that has `slots`). */
  lease?: Omit<LeaseOptions, 'slots'>;
}

/**
 * One track's audio frames → recognition results: decode → resample to the recogniser's rate →
 * (cut into utterances, when the recogniser wants them) → (hold a slot on this node's recogniser) →
 * transcribe. Call once per transcribed
 * track, with that track's frames only. Final results carry spoken numbers as digits; interim
 * results (final: false) are passed on for the consumer to drop.
 */
export function transcribeAudio(
  frames$: Observable<AudioFrame>,
  format: AudioFormat,
  stt: SpeechToText,
  opts: TrackSpeechOptions,
): Observable<SttResult> {
  const pcm$ = frames$.pipe(decode(format.encoding), resample(format.sampleRate, stt.sampleRate));
  let speech$ = stt.wantsSegments ? pcm$.pipe(segment({ ...opts.segmenter, sampleRate: stt.sampleRate })) : pcm$;
  if (stt.slots && opts.lease) speech$ = speech$.pipe(recogniserLease({ ...opts.lease, slots: stt.slots }));
  const transcribeOpts = opts.language
    ? { language: opts.language, sourceRate: format.sampleRate }
    : { sourceRate: format.sampleRate };
  return speech$.pipe(transcribe(stt, transcribeOpts));
}
