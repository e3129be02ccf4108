/*
 * The host's speed, taken beside each benchmark. On a shared machine the same code runs up to twice as
 * slowly from one half hour to the next (steal time shows little of it), so a figure is read against this
 * reference: the rule engine scoring fixture calls on one idle thread, in calls a second.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { callerText, parseTranscript, scoreText } from '../../src/rules/index.js';
import { median } from './stats.js';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/scam-calls.jsonl');

let texts: string[] | null = null;

/** Median of `rounds` rounds of `roundMs` each: calls scored a second. */
export function hostReference(rounds = 5, roundMs = 200): number {
  texts ??= fs
    .readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => callerText(parseTranscript((JSON.parse(l) as { transcript: string }).transcript)));
  const rates: number[] = [];
  let n = 0;
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    let done = 0;
    while (performance.now() - t0 < roundMs) {
      scoreText(texts[n++ % texts.length]!);
      done++;
    }
    rates.push(done / ((performance.now() - t0) / 1000));
  }
  return median(rates);
}
