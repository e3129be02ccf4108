/*
 * The calls the spoken benchmark speaks, and word error rate.
 *
 * Report calls: the labelled corpus's held-back test split (robocall campaigns, task dialogues, coffee
 * orders, Switchboard) plus the repository's written scam calls and hard negatives. Tuning calls: the
 * calibration split. Neither is in the training split the call language model is built from
 * (scripts/build-lm.ts), and the two never share a call. Each call is cut to its first whole lines or
 * sentences up to WORDS words, so a run stays within an hour on two cores; text and audio paths score
 * the same cut.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spokenWords } from '../../src/eval/spoken.js';
import { defaultDataDir, fnv1a, loadCorpus, type Split } from '../../src/eval/split.js';

export interface BenchCall {
  id: string;
  label: 'scam' | 'legit';
  /** As written (speaker labels kept): what the text path scores. */
  transcript: string;
  /** Without labels: what the voice reads. */
  spoken: string;
  /** The reference words for word error rate. */
  words: string[];
}

const WORDS = 110;
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures');
const LABEL = /^\s*(?:caller|callee|agent|customer|user|system|[ab])\s*:\s*/i;

function cut(transcript: string): string {
  const pieces = transcript.split(/\n|(?<=[.!?])\s+(?=[A-Z"'])/);
  const kept: string[] = [];
  let n = 0;
  for (const p of pieces) {
    if (n > 0 && n + spokenWords(p).length > WORDS) break;
    kept.push(p);
    n += spokenWords(p).length;
  }
  return kept.join('\n');
}

function call(id: string, label: 'scam' | 'legit', full: string): BenchCall {
  const transcript = cut(full);
  const spoken = transcript
    .split('\n')
    .map((l) => l.replace(LABEL, '').trim())
    .filter(Boolean)
    .join(' ');
  return { id, label, transcript, spoken, words: spokenWords(transcript) };
}

function fixture(file: string): Array<{ id: string; label: string; transcript: string }> {
  return fs
    .readFileSync(path.join(FIXTURES, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { id: string; label: string; transcript: string });
}

const byHash = <T extends { id: string }>(xs: T[]): T[] => [...xs].sort((a, b) => fnv1a(a.id) - fnv1a(b.id));

/** Calls per source: [robocall, sgd, taskmaster4, switchboard, fixture scams, fixture hard negatives]. */
export function benchCalls(split: Extract<Split, 'test' | 'calibration'>, per: readonly number[]): BenchCall[] {
  const corpus = loadCorpus(defaultDataDir()).filter((e) => e.split === split && e.language !== 'es');
  const sources = ['robocall', 'sgd', 'taskmaster4', 'switchboard'] as const;
  const out: BenchCall[] = [];
  sources.forEach((s, i) => {
    for (const e of byHash(corpus.filter((x) => x.source === s)).slice(0, per[i] ?? 0))
      out.push(call(e.id, e.label, e.transcript));
  });
  // The fixtures have no split of their own: even hashes report, odd ones tune.
  const half = (xs: Array<{ id: string }>) => xs.filter((x) => (fnv1a(x.id) % 2 === 0) === (split === 'test'));
  for (const [file, n] of [
    ['scam-calls.jsonl', per[4] ?? 0],
    ['hard-negatives.jsonl', per[5] ?? 0],
  ] as const) {
    for (const r of byHash(half(fixture(file)) as Array<{ id: string; label: string; transcript: string }>).slice(0, n))
      out.push(call(r.id, r.label === 'scam' ? 'scam' : 'legit', r.transcript));
  }
  return out.filter((c) => c.words.length > 0);
}

/** Word error rate: (substitutions + deletions + insertions) / reference words. */
export function wordErrorRate(reference: readonly string[], hypothesis: readonly string[]): number {
  if (reference.length === 0) return hypothesis.length ? 1 : 0;
  let prev = Array.from({ length: hypothesis.length + 1 }, (_, j) => j);
  for (let i = 1; i <= reference.length; i++) {
    const row = [i];
    for (let j = 1; j <= hypothesis.length; j++) {
      const sub = prev[j - 1]! + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1);
      row.push(Math.min(sub, prev[j]! + 1, row[j - 1]! + 1));
    }
    prev = row;
  }
  return prev[hypothesis.length]! / reference.length;
}
