/** English number words, shared by the reading of spoken amounts and the spelling of written numbers. */
export const ONES: readonly string[] = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
/** Indexed by the tens digit: TENS[2] is "twenty". */
export const TENS: readonly string[] = [
  '',
  '',
  'twenty',
  'thirty',
  'forty',
  'fifty',
  'sixty',
  'seventy',
  'eighty',
  'ninety',
];

const SMALL: ReadonlyMap<string, number> = new Map(ONES.map((w, i) => [w, i]));
const TENS_VALUE: ReadonlyMap<string, number> = new Map(
  TENS.flatMap((w, i) => (w ? [[w, 10 * i] as [string, number]] : [])),
);
const SCALES: ReadonlyMap<string, number> = new Map([
  ['thousand', 1_000],
  ['million', 1_000_000],
]);
/** Every word a number in words is made of. */
export const NUMBER_WORDS: ReadonlySet<string> = new Set([
  ...SMALL.keys(),
  ...TENS_VALUE.keys(),
  'hundred',
  ...SCALES.keys(),
]);

/** The value of a number in words or digits; NaN when the words do not make one number. */
export function numberValue(words: string): number {
  const w = words.toLowerCase().trim();
  if (/^\d/.test(w)) return Number(w.replace(/,/g, ''));
  let total = 0;
  let current = 0;
  let seen = false;
  for (const word of w.split(/[\s-]+/)) {
    if (word === 'a' || word === 'an') current = 1;
    else if (word === 'and') continue;
    else if (word === 'hundred') current = (current || 1) * 100;
    else if (SCALES.has(word)) {
      total += (current || 1) * SCALES.get(word)!;
      current = 0;
    } else {
      const v = SMALL.get(word) ?? TENS_VALUE.get(word);
      if (v === undefined) return NaN;
      // "nineteen ninety-nine" is 1999: a pair said after a pair, with no hundred between, is read on.
      current = v >= 10 && current % 100 >= 10 ? current * 100 + v : current + v;
    }
    seen = true;
  }
  return seen ? total + current : NaN;
}
