/*
 * The host's speed, taken beside each benchmark. On a shared machine the same code runs up to twice as
 * slowly from one half hour to the next (steal time shows little of it), so a figure is read against this
 * reference: the rule engine scoring fixture calls on one idle thread, in calls a second.
 */
import { callerText, parseTranscript, scoreText } from '../../src/rules/index.js';
import { fixtureTranscripts } from './fixtures.js';
import { median } from './stats.js';

let texts: string[] | null = null;

/** Median of `rounds` rounds of `roundMs` each: calls scored a second. */
export function hostReference(rounds = 5, roundMs = 200): number {
  texts ??= fixtureTranscripts('scam-calls.jsonl').map((t) => callerText(parseTranscript(t)));
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
