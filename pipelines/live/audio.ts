import { EMPTY, filter, ignoreElements, map, take, tap, catchError, type Observable } from 'rxjs';
import type { AudioFrame, Role, Track, Utterance } from '../../src/domain/frames.js';
import type { PipelineContext } from '../types.js';
import { transcribeAudio } from './speech.js';

/** Reports a provider refusal as `session.error` (`error`: the provider's message, `text`: what failed). */
export type ReportError = (error: string, text: string) => void;

export const TEXT_ONLY_MESSAGE = 'audio cannot be transcribed: this deployment has no speech-to-text (text-only)';

/**
 * The audio branch of one track: audio frames → decode → resample → (segment) → transcribe →
 * final results → utterances (the speech stage's `transcribeAudio`). Interim results are dropped:
 * they are neither scored nor stored.
 *
 * Without a speech provider the first audio frame yields one `session.error` and the rest of the
 * audio is dropped; the session continues on text.
 */
export function audioUtterances(
  ctx: PipelineContext,
  track: Track,
  audio$: Observable<AudioFrame>,
  report: ReportError,
): Observable<Utterance> {
  const stt = ctx.services.stt;
  if (!stt) {
    return audio$.pipe(
      take(1),
      tap(() => report(TEXT_ONLY_MESSAGE, 'audio frames received')),
      ignoreElements(),
    );
  }
  const role: Role = track === 'outbound' ? 'callee' : 'caller';
  const segmenter = ctx.services.config.tuning?.segmenter;
  const opts = {
    ...(ctx.spec.options.language ? { language: ctx.spec.options.language } : {}),
    ...(segmenter ? { segmenter } : {}),
  };
  return transcribeAudio(audio$, ctx.spec.start.audio, stt, opts).pipe(
    filter((r) => r.final && r.text.trim() !== ''),
    map((r): Utterance => ({ role, speaker: role, text: r.text.trim(), at: ctx.scheduler.now() })),
    catchError((e: unknown) => {
      report(e instanceof Error ? e.message : String(e), `speech-to-text failed on the ${track} track`);
      return EMPTY;
    }),
  );
}
