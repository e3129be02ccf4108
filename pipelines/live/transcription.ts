/*
 * The live transcription stage: one transcript from everything the client sends, its own final
 * transcript lines and the transcription of its audio, track by track:
 *
 *   text frames ─► utterances ──────────────────────────────────────────────────┐
 *   audio frames (per track) ─► decode ─► resample ─► (segment) ─► (lease) ─► transcribe ─► final lines ─┴─► utterances
 */
import { catchError, EMPTY, filter, ignoreElements, map, merge, take, tap, type Observable } from 'rxjs';
import { decode } from '../../operators/decode.js';
import { recogniserLease, type LeaseOptions } from '../../operators/recogniser-lease.js';
import { resample } from '../../operators/resample.js';
import type { FrameLanes } from '../../operators/route-frames.js';
import { segment, type SegmenterOptions } from '../../operators/segment.js';
import { transcribe } from '../../operators/transcribe.js';
import { textUtterances } from '../../operators/utterances.js';
import type { AudioFormat, AudioFrame, Role, Track, Utterance } from '../../src/domain/frames.js';
import { metrics } from '../../src/observability/metrics.js';
import type { SpeechToText, SttResult } from '../../src/providers/stt/types.js';
import type { StageContext } from '../types.js';

/** The ports transcription uses. */
type TranscriptionContext = StageContext<'stt' | 'log' | 'tuning'>;

/** Reports a provider refusal as `session.error` (`error`: the provider's message, `text`: what failed). */
export type ReportError = (error: string, text: string) => void;

export const TEXT_ONLY_MESSAGE = 'audio cannot be transcribed: this deployment has no speech-to-text (text-only)';

/** A slot held this long with no new utterance goes back to the node. */
export const RECOGNISER_IDLE_MS = 30_000;
/** Speech a waiting call keeps, to transcribe when it gets a slot. */
export const WAITING_SPEECH_SECONDS = 30;

/**
 * One transcript from everything the client sends: its own final transcript lines and the
 * transcription of its audio (inbound = caller; outbound = callee, transcribed only with
 * `tracks=both`), plus any extra lines (the honeypot's persona), in the order they become final.
 */
export function liveUtterances(
  ctx: TranscriptionContext,
  lanes: Pick<FrameLanes, 'inbound$' | 'outbound$' | 'text$'>,
  report: ReportError,
  extra$: Observable<Utterance>[] = [],
): Observable<Utterance> {
  const branches = [lanes.text$.pipe(textUtterances(ctx.scheduler))];
  if (!ctx.ports.stt) {
    // Text-only deployment: the first audio of either track is reported once.
    branches.push(audioUtterances(ctx, 'inbound', merge(lanes.inbound$, lanes.outbound$), report));
  } else {
    branches.push(audioUtterances(ctx, 'inbound', lanes.inbound$, report));
    if (ctx.spec.options.tracksBoth) branches.push(audioUtterances(ctx, 'outbound', lanes.outbound$, report));
  }
  return merge(...branches, ...extra$);
}

/**
 * The audio branch of one track: audio frames → recognition results → final utterances. Interim
 * results are dropped: they are neither scored nor stored.
 *
 * Without a speech provider the first audio frame yields one `session.error` and the rest of the
 * audio is dropped; the session continues on text.
 */
export function audioUtterances(
  ctx: TranscriptionContext,
  track: Track,
  audio$: Observable<AudioFrame>,
  report: ReportError,
): Observable<Utterance> {
  const stt = ctx.ports.stt;
  if (!stt) {
    return audio$.pipe(
      take(1),
      tap(() => report(TEXT_ONLY_MESSAGE, 'audio frames received')),
      ignoreElements(),
    );
  }
  const role: Role = track === 'outbound' ? 'callee' : 'caller';
  const segmenter = ctx.ports.tuning?.segmenter;
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

/** How a call waits for this node's recogniser: told once, in the log, the metrics and `session.error`. */
function leaseHooks(
  ctx: TranscriptionContext,
  stt: SpeechToText,
  track: Track,
  report: ReportError,
): TrackSpeechOptions['lease'] {
  const log = ctx.ports.log;
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
