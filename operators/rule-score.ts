import { filter, map, type OperatorFunction } from 'rxjs';
import type { Utterance } from '../src/domain/frames.js';
import type { Assessment } from '../src/domain/verdict.js';
import type { RuleScorer } from '../src/rules/index.js';

/**
 * Rule-engine scoring after every final caller utterance. Only the caller's words reach the scorer:
 * callee and persona lines pass by unscored. Each output assesses everything the caller said so far.
 */
export function ruleScore(scorer: RuleScorer): OperatorFunction<Utterance, Assessment> {
  return (utterances$) =>
    utterances$.pipe(
      filter((u) => u.role === 'caller'),
      map((u) => scorer.push(u.text)),
    );
}
