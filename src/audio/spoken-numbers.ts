/*
 * Spoken numbers in a transcript become digits, so the intel extractors see "202555" where the caller
 * said "two oh two five five five", and amounts are written as a cloud recogniser writes them ("$500",
 * "50%"). English only: for other languages the text is left as recognised.
 */
import { writeAmounts } from '../rules/intel/amounts.js';
import { digitizeSpoken } from '../rules/intel/spoken.js';

export function spokenNumbersToDigits(text: string, language?: string): string {
  if (language && !/^en\b/i.test(language)) return text;
  return digitizeSpoken(writeAmounts(text));
}
