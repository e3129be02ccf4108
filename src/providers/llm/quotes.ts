/*
 * Above 0.6 the spec wants signals that quote the caller. A generative model paraphrases and
 * sometimes invents; a quote that the caller never said must not reach a verdict that may file a
 * complaint. So, above that score, a signal stays only when every quoted part is found in what the
 * caller said (ignoring case, spacing and punctuation).
 */
import { LIKELY_SCAM_AT } from '../../domain/levels.js';
import type { Assessment } from '../../domain/verdict.js';
import { allMatches } from '../../util/matches.js';

const QUOTED = /["“”]([^"“”]{3,})["“”]/g;

function plain(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/[^\p{L}\p{N}']+/gu, ' ')
    .trim();
}

/** The quoted parts of a signal, or none when it quotes nothing. */
export function quotesOf(signal: string): string[] {
  return allMatches(QUOTED, signal).map((m) => m[1]!.replace(/…$/, ''));
}

export function keepCallerQuotes<T extends Assessment>(callerText: string, a: T): T {
  if (a.score < LIKELY_SCAM_AT) return a;
  const said = plain(callerText);
  const signals = a.signals.filter((s) => {
    const quotes = quotesOf(s);
    return quotes.length > 0 && quotes.every((q) => plain(q) !== '' && said.includes(plain(q)));
  });
  return signals.length === a.signals.length ? a : { ...a, signals };
}
