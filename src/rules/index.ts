/*
 * Placeholder rule engine so the live graph can be built before the real one lands.
 * The real engine replaces this file's internals and keeps its exports.
 */
import type { Assessment } from '../domain/verdict.js';
import type { Intel } from '../domain/intel.js';

export interface RuleScorer {
  /** Adds one final caller utterance and returns the assessment of everything the caller said so far. */
  push(text: string): Assessment;
  /** Intel extracted so far. */
  intel(): Intel;
}

export function createRuleScorer(): RuleScorer {
  const lines: string[] = [];
  return {
    push(text: string): Assessment {
      lines.push(text);
      return scoreText(lines.join(' '));
    },
    intel: () => ({}),
  };
}

/** Scores a whole caller text at once (scan, final analysis, evaluation). */
export function scoreText(text: string): Assessment & { intel: Intel } {
  const hits = ['gift card', 'warrant', 'arrest', 'remote', 'social security'].filter((w) =>
    text.toLowerCase().includes(w),
  );
  return {
    score: Math.min(0.95, hits.length * 0.3),
    category: hits.length ? 'Scammers' : 'none',
    tactics: [],
    signals: hits,
    intel: {},
  };
}
