import type { Assessment, Verdict } from './verdict.js';
import { toVerdict } from './verdict.js';

/**
 * How rule evidence and a model's judgement make one verdict.
 *
 * - Rules alone → `heuristic`; model alone → `llm`; both → `combined`.
 * - Combined score: the higher of the two. Rules never lower a model score (spec). A model that says
 *   clean does not lower the rules either: across sources it never saw (scored leave-one-source-out),
 *   the embedded model calls most scams clean (281 of 397 robocalls), so its "clean" is no evidence
 *   against what the rules read in context. Halving the rules on it cost 15 scams their
 *   `likely_scam` and saved no honest call (bench/RESULTS.md, "Verdict quality").
 * - Category: from the scorer whose score stands: the rules' when their score is the higher (they read
 *   the subject from the evidence they quote), else the model's, unless it said `none` while the rules
 *   named a subject above the suspicious band.
 * - Tactics: union. Signals: the rules' quotes first (they cite the caller), then the model's.
 * - Summary: the model's.
 */
export function combine(rules: Assessment | null, model: Assessment | null): Verdict | null {
  if (!rules && !model) return null;
  if (!model) return toVerdict(rules!, 'heuristic');
  if (!rules) return toVerdict(model, 'llm');
  const score = Math.max(rules.score, model.score);
  const category =
    (rules.score > model.score || model.category === 'none') && rules.score >= 0.3 ? rules.category : model.category;
  return toVerdict(
    {
      score,
      category,
      tactics: [...rules.tactics, ...model.tactics],
      signals: [...new Set([...rules.signals, ...model.signals])],
      summary: model.summary,
    },
    'combined',
  );
}
