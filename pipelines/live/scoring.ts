import { defer, EMPTY, filter, finalize, map, merge, tap, type Observable } from 'rxjs';
import type { Utterance } from '../../src/domain/frames.js';
import type { Verdict } from '../../src/domain/verdict.js';
import { openLiveScoring } from '../analyze.js';
import { metrics } from '../../src/observability/metrics.js';
import { modelScore, type ModelScoreResult } from '../../operators/model-score.js';
import { ruleScore } from '../../operators/rule-score.js';
import { verdictGate, type ScoreUpdate } from '../../operators/verdict-gate.js';
import type { StageContext } from '../types.js';
import type { ReportError } from './transcription.js';
import type { LiveProfile } from './profile.js';
import type { LiveState } from './state.js';

/**
 * Live scoring: the rules after every final caller utterance, the model on its 30 s / 120-character
 * cadence, both through the verdict gate. Emits the verdicts worth sending. `utterances$` must be
 * shared by the caller (it is subscribed to twice).
 */
export function liveScoring(
  ctx: StageContext<'llm' | 'analyzer'>,
  profile: LiveProfile,
  state: LiveState,
  utterances$: Observable<Utterance>,
  report: ReportError,
): Observable<Verdict> {
  // Time from a final caller utterance to the verdict it caused (the rules answer in the same tick).
  let heardAt = 0;
  const rules$ = utterances$.pipe(
    tap(() => {
      heardAt = performance.now();
      // Only a verdict in the same tick was caused by this utterance; model verdicts come later.
      queueMicrotask(() => (heardAt = 0));
    }),
    ruleScore(state.rules),
    map((assessment): ScoreUpdate => ({ from: 'rules', assessment })),
  );
  const llm = ctx.ports.llm;
  const model$ = llm
    ? defer(() => {
        // The call's scorer keeps what it has read of the call (on a worker, for the embedded model).
        const live = openLiveScoring(ctx.ports, llm);
        return utterances$.pipe(
          modelScore({
            score: (input, signal) => timed(llm.id, live.score(input, signal)),
            scheduler: ctx.scheduler,
            product: profile.filingProduct,
            ...(ctx.spec.options.language ? { language: ctx.spec.options.language } : {}),
          }),
          finalize(() => live.close()),
        );
      }).pipe(
        tap((r: ModelScoreResult) => {
          if (r.kind === 'error') report(r.error, r.text);
          else state.lastModel = r.assessment;
        }),
        filter((r): r is Extract<ModelScoreResult, { kind: 'assessment' }> => r.kind === 'assessment'),
        map((r): ScoreUpdate => ({ from: 'model', assessment: r.assessment })),
      )
    : EMPTY;
  return merge(rules$, model$).pipe(
    verdictGate(),
    tap((v) => {
      state.lastVerdict = v;
      metrics.verdicts.inc({ level: v.level, source: v.source });
      // One observation a verdict: a rules verdict timed from its utterance to the sub-millisecond, a
      // model verdict (later, on the scheduler's clock) from the last utterance before it.
      if (heardAt > 0) metrics.utteranceToVerdict.observe(performance.now() - heardAt);
      else {
        const heard = state.utterances.at(-1);
        if (heard) metrics.utteranceToVerdict.observe(Math.max(0, ctx.scheduler.now() - heard.at));
      }
      heardAt = 0;
    }),
  );
}

async function timed<T>(provider: string, work: Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    const out = await work;
    metrics.providerCalls.inc({ provider, op: 'score_live', outcome: 'ok' });
    return out;
  } catch (e) {
    metrics.providerCalls.inc({ provider, op: 'score_live', outcome: 'error' });
    throw e;
  } finally {
    metrics.providerLatency.observe({ provider, op: 'score_live' }, performance.now() - t0);
  }
}
