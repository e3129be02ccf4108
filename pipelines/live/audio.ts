import { EMPTY, filter, ignoreElements, map, take, tap, catchError, type Observable } from 'rxjs';
import type { AudioFrame, Role, Track, Utterance } from '../../src/domain/frames.js';
import { metrics } from '../../src/observability/metrics.js';
import type { SpeechToText } from '../../src/providers/stt/types.js';
import type { PipelineContext } from '../types.js';
import { transcribeAudio, type TrackSpeechOptions } from './speech.js';

/** Reports a provider refusal as `session.error` (`error`: the provider's message, `text`: what failed). */
export type ReportError = (error: string, text: string) => void;

export const TEXT_ONLY_MESSAGE = 'audio cannot be transcribed: this deployment has no speech-to-text (text-only)';

/** A slot held this long with no new utterance goes back to the node. */
export const RECOGNISER_IDLE_MS = 30_000;
/** Speech a waiting call keeps, to transcribe when it gets a slot. */
export const WAITING_SPEECH_SECONDS = 30;

/** How a call waits for this node's recogniser: told once, in the log, the metrics and `session.error`. */
function leaseHooks(
  ctx: PipelineContext,
  stt: SpeechToText,
  track: Track,
  report: ReportError,
): TrackSpeechOptions['lease'] {
  const log = ctx.services.log;
  const at = { session: ctx.sessionId, track, stt: stt.id };
  return {
    scheduler: ctx.scheduler,
    idleMs: RECOGNISER_IDLE_MS,
    backlogSamples: WAITING_SPEECH_SECONDS * stt.sampleRate,
    onRefused() {
      const limit = stt.slots?.limit ?? 0;
      metrics.sttRefused.inc({ entry: 'live' });
      log.warn({ ...at, limit }, 'stt: every recogniser slot on this node is taken; the call waits for one');
      report(
        `${stt.id}: all ${limit} speech recognisers on this node are busy; this call's speech is kept ` +
          `(the last ${WAITING_SPEECH_SECONDS} s) and transcribed as soon as one frees`,
        `speech-to-text is waiting on the ${track} track`,
      );
    },
    onAdmitted(held, dropped) {
      log.info({ ...at, held, dropped }, 'stt: a waiting call got a recogniser slot');
    },
    onGaveUp(lost) {
      log.warn(
        { ...at, lost },
        'stt: the call ended while waiting for a recogniser slot; its speech was not transcribed',
      );
    },
  };
}

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
  const opts: TrackSpeechOptions = {
    ...(ctx.spec.options.language ? { language: ctx.spec.options.language } : {}),
    ...(segmenter ? { segmenter } : {}),
    ...(stt.slots ? { lease: leaseHooks(ctx, stt, track, report) } : {}),
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
