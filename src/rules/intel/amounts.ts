/*
 * Spoken amounts → written amounts: "two hundred eighty seven dollars and ninety two cents" → "$287.92",
 * "fifty percent off" → "50% off", "500 dollars" → "$500". A telephone recogniser writes amounts in
 * words (a cloud recogniser writes them as digits), and the cues that weigh a sum of money or a
 * discount read the written form, so both forms must reach them as one.
 */
import { NUMBER_WORDS, numberValue } from './number-words.js';
const WORD = String.raw`(?:${[...NUMBER_WORDS].join('|')})`;
/** A number in words ("a hundred", "two hundred and eighty-seven") or in digits ("1,500", "19.99"). */
const NUMBER = String.raw`(?:(?:an?\s+(?=hundred|thousand|million))?${WORD}(?:(?:\s+and)?[\s-]+${WORD}){0,9}|\d[\d,]*(?:\.\d+)?)`;
/** A unit of money or share, searched in the lower-cased text; every amount ends in one. */
const UNIT = /dollars?|bucks|per ?cent/g;
const LAST_WORD = /([a-z0-9,.]+)\s+$/;
const NUMBER_BEFORE = new RegExp(String.raw`\b(${NUMBER})\s+$`, 'i');
const CENTS_AFTER = new RegExp(String.raw`^\s+and\s+(${NUMBER})\s+cents?\b`, 'i');
/** Longer than any number said in words before its unit. */
const REACH = 100;

/** Text with its amounts written, and where each of its positions was in the text as said. */
export interface WrittenAmounts {
  text: string;
  /** The position in the original text of a position in `text` (an amount's inside maps to its start). */
  original(index: number): number;
}

const SAME = (index: number): number => index;

/** A cheap look first: every text of a call passes here, and few name an amount. */
function mayHoldAmount(lower: string): boolean {
  return lower.includes('dollar') || lower.includes('percent') || lower.includes('per cent') || lower.includes('bucks');
}

/** `lower`: the text lower-cased, when the caller has it already. */
export function readAmounts(spoken: string, lower = spoken.toLowerCase()): WrittenAmounts {
  // Positions are shared by both texts: a letter whose lower case is longer (rare) turns the reading off.
  if (!mayHoldAmount(lower) || lower.length !== spoken.length) return { text: spoken, original: SAME };
  // [start in the new text, end in the new text, start in the original, end in the original]
  const moved: Array<[number, number, number, number]> = [];
  let text = '';
  let cursor = 0;
  for (const u of lower.matchAll(UNIT)) {
    const unitEnd = u.index + u[0].length;
    if (/\w/.test(lower[u.index - 1] ?? ' ') || /\w/.test(lower[unitEnd] ?? ' ')) continue;
    // Only whole words before the unit: the window starts after a space.
    let from = Math.max(cursor, u.index - REACH);
    if (from > cursor) from = spoken.indexOf(' ', from) + 1 || u.index;
    const before = lower.slice(from, u.index);
    // Most units follow no number ("a few dollars", "percent of"): one word tells.
    const last = LAST_WORD.exec(before.slice(-16))?.[1];
    if (!last || !(NUMBER_WORDS.has(last) || /^\d/.test(last))) continue;
    const number = NUMBER_BEFORE.exec(before);
    if (!number) continue;
    const cents = CENTS_AFTER.exec(lower.slice(unitEnd, unitEnd + REACH));
    const written = writeAmount(number[1]!, u[0], cents?.[1]);
    if (written === undefined) continue;
    const start = from + number.index;
    const end = unitEnd + (cents && !/^per/i.test(u[0]) ? cents[0].length : 0);
    text += spoken.slice(cursor, start);
    moved.push([text.length, text.length + written.length, start, end]);
    text += written;
    cursor = end;
  }
  if (!moved.length) return { text: spoken, original: SAME };
  text += spoken.slice(cursor);
  return {
    text,
    original(index) {
      let shift = 0;
      for (const [from, to, origFrom, origTo] of moved) {
        if (index < from) break;
        if (index < to) return origFrom;
        shift = origTo - to;
      }
      return index + shift;
    },
  };
}

export function writeAmounts(text: string): string {
  return readAmounts(text).text;
}

function writeAmount(number: string, unit: string, cents?: string): string | undefined {
  const value = numberValue(number);
  if (!Number.isFinite(value)) return undefined;
  if (/^per/i.test(unit)) return `${value}%`;
  const c = cents === undefined ? NaN : numberValue(cents);
  if (cents !== undefined && !(Number.isInteger(c) && c >= 0 && c < 100)) return undefined;
  return Number.isNaN(c) ? `$${value}` : `$${value}.${String(c).padStart(2, '0')}`;
}
