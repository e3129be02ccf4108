import {
  catchError,
  concat,
  EMPTY,
  connect,
  defer,
  ignoreElements,
  map,
  merge,
  NEVER,
  of,
  race,
  Subject,
  switchMap,
  takeUntil,
  tap,
  timer,
  type Observable,
} from 'rxjs';
import type { PersonaInfo, SessionEvent } from '../../src/domain/events.js';
import type { EndReason, Frame, Utterance } from '../../src/domain/frames.js';
import { BILLING_MINUTE_MS } from '../../src/domain/limits.js';
import { shutdownFlushMs } from '../../src/domain/shutdown.js';
import { EventFactory } from '../../src/events/envelope.js';
import { metrics } from '../../src/observability/metrics.js';
import { collectDtmf } from '../../operators/dtmf.js';
import { meter } from '../../operators/meter.js';
import { timeLimit } from '../../operators/time-limit.js';
import { routeFrames } from '../../operators/route-frames.js';
import type { PipelineContext, StageContext } from '../types.js';
import { endSession } from './ending.js';
import type { LiveProfile } from './profile.js';
import { liveScoring } from './scoring.js';
import { LiveState } from './state.js';
import { liveUtterances, type ReportError } from './transcription.js';

/** What a product adds to the common live session (the honeypot's persona and dialogue). */
export interface LiveHooks {
  /** Shown in `session.started` and stored with the session. */
  persona?: PersonaInfo;
  /**
   * Extra transcript lines (the persona's), given what was heard from the client (caller and callee
   * lines, final only) and the session's frames. They join the one transcript: shown as
   * `transcript.line`, stored, seen by the model, never scored as the caller.
   */
  extraLines?: (
    heard$: Observable<Utterance>,
    frames$: Observable<Frame>,
    report: ReportError,
  ) => Observable<Utterance>;
  /** Further reasons to end (the persona hanging up); the first end trigger of any kind wins. */
  end$?: Observable<EndReason>;
}

/**
 * One live session as a single observable graph:
 *
 *   frames ─ until stop | credits | time limit ─ routed by kind ─┬─ dtmf ─► intel.dtmf
 *                                                                └─ text + audio (+ extra lines) ─► utterances
 *   utterances ─┬─► transcript.line
 *               └─► rules / model ─► gate ─► verdict
 *   then: final analysis ─► filing ─► record ─► session.ended
 *
 * Events come out in order: `session.started` first, `session.ended` last, then completion.
 */
export function liveSession(
  ctx: PipelineContext,
  profile: LiveProfile,
  hooks: LiveHooks = {},
): Observable<SessionEvent> {
  return defer(() => {
    const { spec, scheduler } = ctx;
    const state = new LiveState(scheduler.now());
    const events = new EventFactory(
      {
        sessionId: ctx.sessionId,
        kind: profile.kind,
        callId: spec.start.callId,
        from: spec.start.from,
        to: spec.start.to,
      },
      scheduler,
    );
    const errors = new Subject<SessionEvent>();
    const report: ReportError = (error, text) => errors.next(events.error(error, text));

    const price = profile.minutePrice(spec.options.tracksBoth);
    const triggers$ = merge(
      meter({
        debit: () => debitMinute(ctx, profile, price),
        scheduler,
        maxCharges: Math.ceil(profile.timeLimitMs / BILLING_MINUTE_MS) - 1,
      }),
      timeLimit(profile.timeLimitMs, scheduler),
      hooks.end$ ?? [],
    );

    const live$ = ctx.frames$.pipe(
      routeFrames((lanes) => {
        const dtmf$ = lanes.dtmf$.pipe(
          collectDtmf(),
          tap((digits) => (state.dtmf = digits)),
          ignoreElements(),
        );
        const heard$ = liveUtterances(ctx, lanes, report);
        const all$ = hooks.extraLines
          ? heard$.pipe(connect((h$) => merge(h$, hooks.extraLines!(h$, lanes.all$, report))))
          : heard$;
        // After the stop, speech-to-text gets a bounded time to flush; a stuck provider cannot hold the end,
        // and a node shutting down gives it less.
        const flushDeadline$ = lanes.stop$.pipe(
          tap((f) => (state.endReason = f.reason)),
          switchMap(() =>
            race(
              timer(profile.flushMs, scheduler),
              (ctx.shutdown$ ?? NEVER).pipe(switchMap((d) => timer(shutdownFlushMs(d, scheduler.now()), scheduler))),
            ),
          ),
        );
        const spoken$ = all$.pipe(
          takeUntil(flushDeadline$),
          tap((u) => state.record(u)),
          connect((u$) =>
            merge(
              u$.pipe(map((u) => events.line(u.speaker, u.text))),
              liveScoring(ctx, profile, state, u$, report).pipe(map((v) => events.verdict(v))),
            ),
          ),
        );
        return merge(dtmf$, spoken$);
      }, triggers$),
      // A defect in one call's graph ends that call like any other end: final analysis, record, session.ended.
      catchError((err: unknown) => {
        ctx.ports.log.error({ err, session: ctx.sessionId }, 'session graph failed; ending the session');
        state.endReason = 'error';
        return EMPTY;
      }),
      tap({ complete: () => errors.complete() }),
    );

    return concat(
      of(events.started(hooks.persona)),
      merge(errors, live$),
      endSession(ctx, profile, state, events, hooks.persona ? { personaId: hooks.persona.id } : {}),
    );
  });
}

/** Charges one started minute. A store outage is not the caller's fault: it is logged and the call goes on. */
async function debitMinute(ctx: StageContext<'store' | 'log'>, profile: LiveProfile, price: number): Promise<boolean> {
  try {
    const ok = await ctx.ports.store.keys.debit(ctx.spec.key.id, price);
    if (ok) metrics.creditsCharged.inc({ product: profile.kind }, price);
    return ok;
  } catch (e) {
    ctx.ports.log.error({ err: e, session: ctx.sessionId }, 'debiting a started minute failed; session continues');
    return true;
  }
}
