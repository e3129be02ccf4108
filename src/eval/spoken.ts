/*
 * Written transcripts as the words a speaker says and a recogniser writes: lower case, no speaker
 * labels or punctuation, numbers and symbols spelled out. The domain language model is trained on this
 * form and word error rates are counted on it, so the two always agree on what a "word" is.
 */
import { spokenNumbersToDigits } from '../audio/spoken-numbers.js';

const ONES = [
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
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const ORDINAL: Record<string, string> = {
  one: 'first',
  two: 'second',
  three: 'third',
  five: 'fifth',
  eight: 'eighth',
  nine: 'ninth',
  twelve: 'twelfth',
};

/** A whole number below a billion in words ("one thousand two hundred five"). */
export function cardinal(n: number): string[] {
  if (n < 20) return [ONES[n]!];
  if (n < 100) return [TENS[Math.floor(n / 10)]!, ...(n % 10 ? [ONES[n % 10]!] : [])];
  if (n < 1000) return [ONES[Math.floor(n / 100)]!, 'hundred', ...(n % 100 ? cardinal(n % 100) : [])];
  for (const [size, name] of [
    [1_000_000, 'million'],
    [1000, 'thousand'],
  ] as const) {
    if (n >= size) return [...cardinal(Math.floor(n / size)), name, ...(n % size ? cardinal(n % size) : [])];
  }
  return [];
}

function ordinal(n: number): string[] {
  const words = cardinal(n);
  const last = words.pop()!;
  const ord = ORDINAL[last] ?? (last.endsWith('y') ? `${last.slice(0, -1)}ieth` : `${last}th`);
  return [...words, ord];
}

const digits = (s: string): string[] => [...s].map((d) => ONES[Number(d)]!);

/** One number token as spoken: amounts and short numbers as cardinals, long digit runs digit by digit. */
function numberWords(token: string): string[] {
  const ord = /^(\d+)(st|nd|rd|th)$/.exec(token);
  if (ord) return ordinal(Number(ord[1]));
  const plain = token.replace(/,(?=\d{3}\b)/g, '');
  const dec = /^(\d+)\.(\d+)$/.exec(plain);
  if (dec) return [...numberWords(dec[1]!), 'point', ...digits(dec[2]!)];
  if (!/^\d+$/.test(plain)) return digits(plain.replace(/\D/g, ''));
  // Years and amounts are said as numbers; phone, case and card numbers digit by digit.
  if (plain.length <= 4 && !(plain.length > 1 && plain.startsWith('0'))) return cardinal(Number(plain));
  if (plain.length <= 7 && token.includes(',')) return cardinal(Number(plain));
  return digits(plain);
}

const SPEAKER_LABEL = /^\s*(?:caller|callee|agent|customer|user|system|speaker\s*\w+|[ab])\s*:/gim;

/** The spoken words of a transcript. */
export function spokenWords(text: string): string[] {
  const out: string[] = [];
  const cleaned = text
    .replace(SPEAKER_LABEL, ' ')
    .replace(/\[[^\]]*\]|<[^>]*>/g, ' ') // annotations such as [laughter]
    .replace(/\b([a-z])\.(?=[a-z]\.)/gi, '$1') // I.R.S. → IRS.
    .replace(/&/g, ' and ')
    .replace(/%/g, ' percent ')
    .replace(/\+/g, ' plus ');
  for (const raw of cleaned.split(/\s+/)) {
    const money = /^\$(\d[\d,]*(?:\.\d\d)?)$/.exec(raw.replace(/[.,;:!?)]+$/, ''));
    if (money) {
      const [whole, cents] = money[1]!.replace(/,/g, '').split('.');
      out.push(...cardinal(Number(whole)), Number(whole) === 1 ? 'dollar' : 'dollars');
      if (cents && Number(cents)) out.push('and', ...cardinal(Number(cents)), 'cents');
      continue;
    }
    const phone = raw.replace(/^[(]|[.,;:!?]+$/g, '');
    if (/^[\d()\-. ]+$/.test(phone) && phone.replace(/\D/g, '').length >= 7 && /[-().]/.test(phone)) {
      out.push(...digits(phone.replace(/\D/g, '')));
      continue;
    }
    for (const piece of raw.toLowerCase().match(/\d[\d,.]*\d(?:st|nd|rd|th)?|\d(?:st|nd|rd|th)?|[a-z]+(?:'[a-z]+)*/g) ??
      []) {
      out.push(...(/^\d/.test(piece) ? numberWords(piece) : [piece]));
    }
  }
  return out;
}

/**
 * A written transcript as a mono recording's recogniser would write it with every word right: no
 * speaker labels (who said what unknown), the spoken words, then the normalisation the product gives
 * recogniser output (numbers and amounts written). What the text path must still read when a call
 * arrives as one track of speech.
 */
export function recognisedForm(transcript: string): string {
  return spokenNumbersToDigits(spokenWords(transcript).join(' '), 'en');
}
