import { defer, filter, map, type OperatorFunction } from 'rxjs';
import { combine } from '../src/domain/combine.js';
import { SUSPICIOUS_AT } from '../src/domain/levels.js';
import { RULES_ONLY_MIN, SCORE_STEP } from '../src/domain/limits.js';
import type { Assessment, Verdict } from '../src/domain/verdict.js';

export interface ScoreUpdate {
  from: 'rules' | 'model';
  assessment: Assessment;
}

/**
 * Decides which score updates become `verdict` events (spec, "When a verdict event is sent").
 * Holds the latest rules and model assessments, combines them (rules never lower a model score),
 * and compares the result with the last verdict sent:
 * first ≥ 0.3, a level change, a category change, or a move of ≥ 0.15.
 */
export function verdictGate(): OperatorFunction<ScoreUpdate, Verdict> {
  return (updates$) =>
    defer(() => {
      let rules: Assessment | null = null;
      let model: Assessment | null = null;
      let last: Verdict | null = null;
      return updates$.pipe(
        map((u) => {
          if (u.from === 'rules') rules = u.assessment;
          else model = u.assessment;
          const v = combine(rules, model);
          if (!v || !worthSending(v, last, model === null)) return null;
          last = v;
          return v;
        }),
        filter((v): v is Verdict => v !== null),
      );
    });
}

export function worthSending(v: Verdict, last: Verdict | null, rulesOnly: boolean): boolean {
  if (rulesOnly && v.score < RULES_ONLY_MIN) return false;
  if (!last) return v.score >= SUSPICIOUS_AT;
  // Scores carry three decimals; compare in thousandths so 0.6 − 0.45 counts as 0.15.
  const moved = Math.abs(Math.round(v.score * 1000) - Math.round(last.score * 1000)) >= SCORE_STEP * 1000;
  return v.level !== last.level || v.category !== last.category || moved;
}
