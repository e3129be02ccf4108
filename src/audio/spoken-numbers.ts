/*
 * Spoken numbers in a transcript become digits, so the intel extractors see "202555" where the caller
 * said "two oh two five five five". English only: for other languages the text is left as recognised.
 */
import { digitizeSpoken } from '../rules/intel/spoken.js';

export function spokenNumbersToDigits(text: string, language?: string): string {
  if (language && !/^en\b/i.test(language)) return text;
  return digitizeSpoken(text);
}
