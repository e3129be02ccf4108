import type { Assessment, Verdict } from './verdict.js';
import { LIKELY_SCAM_AT, SUSPICIOUS_AT } from './levels.js';
import { toVerdict } from './verdict.js';

/**
 * How rule evidence and a model's judgement make one verdict.
 *
 * - Rules alone → `heuristic`; model alone → `llm`; both → `combined`.
 * - Combined score: rules never lower a model score (spec). When the rules found more and the model
 *   flagged the call too (`suspicious` or above), the rules' score stands: the embedded model
 *   deliberately caps weak evidence below the `scam` band (one kind of evidence stays `suspicious`),
 *   and averaging would pull evidence the rules read in context under it. When the model says clean,
 *   the rules lift it only halfway, so one rule misfire cannot reach `scam` alone,
 *   unless the rules' evidence shows two or more distinct tactics, or one decisive request at
 *   likely_scam or above: that is no single misfire, and a model that found nothing (a short robocall
 *   in words it never saw, a call from a source it was never trained on) has no grounds to halve it.
 * - Category: from the scorer whose score stands: the rules' when their score is the higher (they read
 *   the subject from the evidence they quote), else the model's, unless it said `none` while the rules
 *   named a subject above the suspicious band.
 * - Tactics: union. Signals: the rules' quotes first (they cite the caller), then the model's.
 * - Summary: the model's.
 */
const CORROBORATING_TACTICS = 2;

/**
 * A request that no honest caller makes of a stranger (pay by gift card, crypto or courier, read a
 * code, hand over credentials, give remote control), read by the rules in context at likely_scam or
 * above, is no single misfire either: a model that never saw such a call (a new source) has no
 * grounds to halve it.
 */
const DECISIVE_REQUESTS: ReadonlySet<string> = new Set([
  'untraceable_payment',
  'otp_request',
  'pii_harvest',
  'remote_access',
  // A recorded call's key press or call-back: the rules reach likely_scam on it only with a pitch,
  // a claim or a problem around it.
  'callback_pressure',
]);

function corroborated(rules: Assessment): boolean {
  if (new Set(rules.tactics).size >= CORROBORATING_TACTICS) return true;
  return rules.score >= LIKELY_SCAM_AT && rules.tactics.some((t) => DECISIVE_REQUESTS.has(t));
}

export function combine(rules: Assessment | null, model: Assessment | null): Verdict | null {
  if (!rules && !model) return null;
  if (!model) return toVerdict(rules!, 'heuristic');
  if (!rules) return toVerdict(model, 'llm');
  const score =
    rules.score <= model.score
      ? model.score
      : model.score >= SUSPICIOUS_AT || corroborated(rules)
        ? rules.score
        : (model.score + rules.score) / 2;
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
