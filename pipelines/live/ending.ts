import { defer, from, map, mergeMap, NEVER, race, switchMap, timer, type Observable } from 'rxjs';
import type { SessionEvent } from '../../src/domain/events.js';
import { countIntel, mergeIntel, type Intel } from '../../src/domain/intel.js';
import type { StoredSession } from '../../src/domain/session.js';
import { shutdownAnalysisMs } from '../../src/domain/shutdown.js';
import { CLEAN_VERDICT, type Verdict } from '../../src/domain/verdict.js';
import type { EventFactory } from '../../src/events/envelope.js';
import { analyzeCall } from '../analyze.js';
import { metrics } from '../../src/observability/metrics.js';
import type { ModelInput } from '../../src/providers/llm/types.js';
import { fileComplaints, type FilingResult } from '../filing.js';
import type { StageContext } from '../types.js';

/** The ports the ending uses. */
type EndingContext = StageContext<'log' | 'llm' | 'analyzer' | 'store' | 'nodeId'>;
import type { LiveProfile } from './profile.js';
import type { LiveState } from './state.js';

export interface EndingOptions {
  /** Honeypot: the persona that answered, stored with the session. */
  personaId?: string;
}

/**
 * The end of a live session, once the transcript is complete (audio flushed): one final analysis
 * of the whole transcript bounded at 20 s (on timeout the rules verdict stands), complaints when
 * `report` and the filing conditions hold, the full session record, then `session.ended`.
 * Emits any `session.error` of the analysis first, `session.ended` last, then completes.
 * Never fails: a store or filing failure is logged and the client still gets `session.ended`.
 */
export function endSession(
  ctx: EndingContext,
  profile: LiveProfile,
  state: LiveState,
  events: EventFactory,
  opts: EndingOptions = {},
): Observable<SessionEvent> {
  return defer(() => from(finish(ctx, profile, state, events, opts))).pipe(mergeMap((list) => list));
}

async function finish(
  ctx: EndingContext,
  profile: LiveProfile,
  state: LiveState,
  events: EventFactory,
  opts: EndingOptions,
): Promise<SessionEvent[]> {
  const { ports, spec, sessionId, scheduler } = ctx;
  const log = ports.log.child({ session: sessionId });
  const out: SessionEvent[] = [];

  const input: ModelInput = {
    utterances: state.utterances,
    callerText: state.callerText(),
    product: profile.filingProduct,
  };
  if (spec.options.language) input.language = spec.options.language;

  const ac = new AbortController();
  const bound = race(
    timer(profile.finalAnalysisMs, scheduler).pipe(
      map(() => `final analysis took longer than ${profile.finalAnalysisMs / 1000} s; rules verdict kept`),
    ),
    // A node shutting down gives the analysis only what its drain leaves after the record and posts.
    (ctx.shutdown$ ?? NEVER).pipe(
      switchMap((deadline) => {
        const ms = shutdownAnalysisMs(deadline, scheduler.now());
        return timer(ms, scheduler).pipe(
          map(() => `node is shutting down: final analysis cut to ${ms / 1000} s; rules verdict kept`),
        );
      }),
    ),
  ).subscribe((why) => ac.abort(new Error(why)));
  let verdict: Verdict;
  let intel: Intel;
  try {
    // On an analysis worker when the node has one: a call's end must not stall the calls still running.
    const analysis = await analyzeCall(ports, input, ac.signal, (e) =>
      out.push(events.error(e.message, 'final analysis by the model failed; the rules verdict stands')),
    );
    verdict = analysis.verdict;
    intel = analysis.intel;
  } catch (e) {
    log.error({ err: e }, 'final analysis failed');
    verdict = state.lastVerdict ?? CLEAN_VERDICT;
    intel = {};
  } finally {
    bound.unsubscribe();
  }
  intel = mergeIntel(intel, state.rules.intel(), state.dtmf ? { dtmf: state.dtmf } : undefined);

  const endedMs = scheduler.now();
  const endedAt = new Date(endedMs).toISOString();
  let filing: FilingResult = { reported: false, reported_numbers: 0 };
  try {
    filing = await fileComplaints(ports.store, {
      sessionId,
      keyId: spec.key.id,
      product: profile.filingProduct,
      report: spec.options.report,
      verdict,
      from: spec.start.from,
      intel,
      now: endedAt,
    });
    if (filing.reported_numbers > 0)
      metrics.complaintsFiled.inc({ product: profile.filingProduct }, filing.reported_numbers);
  } catch (e) {
    log.error({ err: e }, 'filing complaints failed');
  }

  const durationSeconds = Math.max(0, Math.round((endedMs - state.startedAt) / 1000));
  const transcript = state.transcript();
  const record: StoredSession = {
    ...openRecord(ctx, state.startedAt, opts),
    ended_at: endedAt,
    duration_seconds: durationSeconds,
    turns: state.utterances.length,
    transcript,
    score: verdict.score,
    level: verdict.level,
    category: verdict.category,
    intel_count: countIntel(intel),
    reported: filing.reported,
    state: 'ended',
    tactics: verdict.tactics,
    signals: verdict.signals,
    intel,
    reported_numbers: filing.reported_numbers,
  };
  if (verdict.summary) record.summary = verdict.summary;
  try {
    await ports.store.sessions.put(record);
  } catch (e) {
    // The open record written at start stays; the node closes it on recovery.
    log.error({ err: e }, 'writing the session record failed');
  }
  log.info({ reason: state.endReason, score: verdict.score, reported: filing.reported }, 'session ended');

  out.push(
    events.ended({
      verdict,
      intel,
      transcript,
      durationSeconds,
      reported: filing.reported,
      reportedNumbers: filing.reported_numbers,
    }),
  );
  return out;
}

/** The record written when a session starts (`state: open`), so a crashed node's sessions can be closed later. */
export function openRecord(
  ctx: Pick<StageContext<'nodeId'>, 'sessionId' | 'spec' | 'ports'>,
  startedAtMs: number,
  opts: EndingOptions = {},
): StoredSession {
  const { spec } = ctx;
  const rec: StoredSession = {
    id: ctx.sessionId,
    kind: spec.kind,
    protocol: spec.protocol,
    started_at: new Date(startedAtMs).toISOString(),
    turns: 0,
    transcript: '',
    score: 0,
    level: 'clean',
    category: 'none',
    intel_count: 0,
    reported: false,
    key_id: spec.key.id,
    state: 'open',
    node_id: ctx.ports.nodeId,
    tactics: [],
    signals: [],
    intel: {},
    reported_numbers: 0,
  };
  if (spec.start.callId) rec.call_id = spec.start.callId;
  if (spec.start.from) rec.from = spec.start.from;
  if (spec.start.to) rec.to = spec.start.to;
  if (opts.personaId ?? spec.options.persona) rec.persona_id = (opts.personaId ?? spec.options.persona)!;
  return rec;
}
