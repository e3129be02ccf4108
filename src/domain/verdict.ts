import type { VerdictCategory } from './categories.js';
import { clampScore, levelOf, type Level } from './levels.js';
import { SUMMARY_MAX_SENTENCES } from './limits.js';
import type { Tactic } from './tactics.js';

export type VerdictSource = 'heuristic' | 'llm' | 'combined' | 'stored';

/** The spec's verdict object, field for field. `summary` is present only when a model produced it. */
export interface Verdict {
  score: number;
  level: Level;
  category: VerdictCategory;
  tactics: Tactic[];
  signals: string[];
  summary?: string;
  source: VerdictSource;
}

/** What a scorer (rules or model) proposes before the gate turns it into a verdict. */
export interface Assessment {
  score: number;
  category: VerdictCategory;
  tactics: Tactic[];
  signals: string[];
  summary?: string;
}

export function toVerdict(a: Assessment, source: VerdictSource): Verdict {
  const score = clampScore(a.score);
  const v: Verdict = {
    score,
    level: levelOf(score),
    category: a.category,
    tactics: [...new Set(a.tactics)],
    signals: a.signals.slice(0, 8),
    source,
  };
  if (a.summary) v.summary = limitSentences(a.summary, SUMMARY_MAX_SENTENCES);
  return v;
}

export const CLEAN_VERDICT: Verdict = Object.freeze({
  score: 0,
  level: 'clean',
  category: 'none',
  tactics: [],
  signals: [],
  source: 'heuristic',
}) as Verdict;

/** The spec caps a summary at two sentences; models do not always listen. */
export function limitSentences(text: string, max: number): string {
  const parts = text.trim().match(/[^.!?]+[.!?]+(?:\s|$)|[^.!?]+$/g) ?? [];
  return parts.slice(0, max).join('').trim();
}
