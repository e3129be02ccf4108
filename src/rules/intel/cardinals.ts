/*
 * Numbers said as a count with "thousand" in them: "seven thousand seven hundred thirty one" is 7731.
 * Reference and badge numbers are read this way (text-to-speech voices read "WIN-7731" so, and people
 * read short references so too). Read digit by digit they came out as "700070031". Only spans with
 * "thousand" are read as counts: "eight hundred five five five" is a phone number's digits, not 805.
 */
import { numberValue, ONES, TENS as TENS_WORDS } from './number-words.js';
const UNITS = ONES.slice(1, 10);
const TEENS = ONES.slice(10);
const TENS = TENS_WORDS.slice(2);

const U = `(?:${UNITS.join('|')})`;
const BELOW_100 = `(?:(?:${TENS.join('|')})(?:[\\s-]${U})?|${TEENS.join('|')}|${U})`;
const BELOW_1000 = `(?:${U}\\s+hundred(?:\\s+(?:and\\s+)?${BELOW_100})?|${BELOW_100})`;
const CARDINAL = new RegExp(`\\b(${BELOW_1000})\\s+thousand(?:\\s+(?:and\\s+)?(${BELOW_1000}))?\\b`, 'gi');

/** `text` with every count that has "thousand" in it written in digits; the rest as it was. */
export function writeCardinals(text: string): string {
  if (!/thousand/i.test(text)) return text;
  return text.replace(CARDINAL, (count: string) => String(numberValue(count)));
}
