/**
 * Spoken forms → written forms, so one set of extractors reads both what was typed and what speech
 * recognition wrote down: "two oh two, five five five" → "202555", "triple five" → "555",
 * "john dot smith at gmail dot com" → "john.smith@gmail.com".
 */
import { writeCardinals } from './cardinals.js';

// Maps, not object literals: `"constructor" in {…}` is true, and a lookup of an arbitrary word in a Map
// is also the faster one on this path (every word of every transcript).
const DIGIT_WORDS: ReadonlyMap<string, string> = new Map([
  ['zero', '0'],
  ['oh', '0'],
  ['o', '0'],
  ['one', '1'],
  ['two', '2'],
  ['to', '2'],
  ['too', '2'],
  ['three', '3'],
  ['four', '4'],
  ['for', '4'],
  ['five', '5'],
  ['six', '6'],
  ['seven', '7'],
  ['eight', '8'],
  ['nine', '9'],
]);
/** Words that are digits only between other digits ("two oh two"), never at a run's edge ("oh, hi"; "send it to me"). */
const WEAK = new Set(['oh', 'o', 'to', 'too', 'for']);
const REPEAT: ReadonlyMap<string, number> = new Map([
  ['double', 2],
  ['triple', 3],
]);
const SCALE: ReadonlyMap<string, string> = new Map([
  ['hundred', '00'],
  ['thousand', '000'],
]);
/** People read numbers in pairs too: "eight seventy-seven", "forty one twelve". */
const TENS: ReadonlyMap<string, string> = new Map([
  ['twenty', '2'],
  ['thirty', '3'],
  ['forty', '4'],
  ['fifty', '5'],
  ['sixty', '6'],
  ['seventy', '7'],
  ['eighty', '8'],
  ['ninety', '9'],
]);
const TEENS: ReadonlyMap<string, string> = new Map([
  ['ten', '10'],
  ['eleven', '11'],
  ['twelve', '12'],
  ['thirteen', '13'],
  ['fourteen', '14'],
  ['fifteen', '15'],
  ['sixteen', '16'],
  ['seventeen', '17'],
  ['eighteen', '18'],
  ['nineteen', '19'],
]);
/**
 * A run read in pairs is rewritten only when it is as long as a phone number: "nineteen eighty two" and
 * "twenty five" stay words (a year, a count), "eight seventy-seven, two oh nine, forty one twelve" does not.
 */
const PAIRED_RUN_MIN_DIGITS = 7;

interface Tok {
  /** The word lower-cased (digits as written). */
  lower: string;
  /** Written in digits. */
  numeric: boolean;
  start: number;
  end: number;
}

/** No spoken digit, repeat or scale word is longer ("thousand"): longer words are not lower-cased to look. */
const LONGEST = Math.max(
  ...[...DIGIT_WORDS.keys(), ...REPEAT.keys(), ...SCALE.keys(), ...TENS.keys(), ...TEENS.keys()].map((w) => w.length),
);
/** What may separate two digits of one run: "two oh two, five five five", "4111-1111". */
const RUN_GAP = /^[\s,.\-–]{0,3}$/;

/**
 * Rewrites runs of spoken digits as digits. A run must hold at least three digits and one spoken word;
 * runs written only in digits are left as they are (their punctuation helps the phone parser).
 *
 * One pass over the words: only digit-like words are kept, as the current run, which ends at the first
 * other word or wider gap. Every word of every call passes here, and most are not digits.
 */
export function digitizeSpoken(spoken: string): string {
  const text = writeCardinals(spoken);
  let out = '';
  let cursor = 0;
  let run: Tok[] = [];
  const flush = (): void => {
    let a = 0;
    let b = run.length - 1;
    while (a <= b && (WEAK.has(run[a]!.lower) || SCALE.has(run[a]!.lower))) a += 1;
    while (b >= a && (WEAK.has(run[b]!.lower) || REPEAT.has(run[b]!.lower))) b -= 1;
    let kept = run.slice(a, b + 1);
    let digits = spell(kept);
    // A phone number may end in "oh": "six one seven, five five five, oh one two oh" is ten digits.
    const next = run[b + 1];
    if (next && (next.lower === 'oh' || next.lower === 'o') && (digits.length === 9 || digits.length === 10)) {
      kept = run.slice(a, b + 2);
      digits += '0';
    }
    const paired = kept.some((t) => TENS.has(t.lower) || TEENS.has(t.lower));
    if (kept.length && digits.length >= (paired ? PAIRED_RUN_MIN_DIGITS : 3) && kept.some((t) => !t.numeric)) {
      out += text.slice(cursor, kept[0]!.start) + digits;
      cursor = kept[kept.length - 1]!.end;
    }
    run = [];
  };
  let prevLower = '';
  const re = /[A-Za-z]+|\d+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const word = m[0];
    const numeric = isDigit(word.charCodeAt(0));
    const lower = numeric ? word : word.length <= LONGEST ? word.toLowerCase() : '';
    const digitLike =
      numeric ||
      DIGIT_WORDS.has(lower) ||
      REPEAT.has(lower) ||
      TENS.has(lower) ||
      TEENS.has(lower) ||
      (SCALE.has(lower) && DIGIT_WORDS.has(prevLower));
    prevLower = lower;
    if (!digitLike) {
      if (run.length) flush();
      continue;
    }
    const start = m.index;
    const last = run[run.length - 1];
    if (last && !RUN_GAP.test(text.slice(last.end, start))) flush();
    run.push({ lower, numeric, start, end: start + word.length });
  }
  if (run.length) flush();
  return out + text.slice(cursor);
}

/** The tokeniser yields runs of letters or runs of digits, so the first character decides. */
function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function spell(run: readonly Tok[]): string {
  let s = '';
  let repeat = 1;
  for (let i = 0; i < run.length; i++) {
    const w = run[i]!.lower;
    const times = REPEAT.get(w);
    if (times !== undefined) {
      repeat = times;
      continue;
    }
    const tens = TENS.get(w);
    if (tens !== undefined) {
      // "seventy seven" is 77, "seventy" alone 70; "seventy oh" is not a pair.
      const unit = DIGIT_WORDS.get(run[i + 1]?.lower ?? '');
      const pairs = unit !== undefined && unit !== '0' && !WEAK.has(run[i + 1]!.lower);
      s += (tens + (pairs ? unit : '0')).repeat(repeat);
      if (pairs) i += 1;
      repeat = 1;
      continue;
    }
    const d = run[i]!.numeric ? w : (DIGIT_WORDS.get(w) ?? SCALE.get(w) ?? TEENS.get(w) ?? '');
    s += d.length === 1 ? d.repeat(repeat) : d;
    repeat = 1;
  }
  return s;
}

/**
 * Spoken e-mail and web addresses: "dot" → ".", "at" between name-like words before a domain → "@",
 * "underscore" → "_", "dash"/"hyphen" inside a name → "-". Only rewrites where a known top-level
 * domain follows, so ordinary sentences with "at" and "dot" are left alone.
 */
const TLD = String.raw`(?:com|net|org|info|biz|us|co|io|gov|edu|me|xyz|online|site|support|help|live|app|uk|ca|in)`;
// Repetitions are bounded so long runs of "a dot a dot …" cannot make these regexes backtrack quadratically.
const LABEL = String.raw`[a-z0-9]{1,64}(?:\s{1,3}(?:dot|underscore|dash|hyphen)\s{1,3}[a-z0-9]{1,64}){0,4}`;
const HOST_LABEL = String.raw`[a-z0-9]{1,63}(?:\s{1,3}(?:dash|hyphen)\s{1,3}[a-z0-9]{1,63}){0,3}`;
const SPOKEN_EMAIL = new RegExp(
  String.raw`\b(${LABEL})\s{1,3}at\s{1,3}((?:${HOST_LABEL}\s{1,3}dot\s{1,3}){1,4}${TLD})\b`,
  'gi',
);
const SPOKEN_HOST = new RegExp(
  String.raw`\b((?:www\s{1,3}dot\s{1,3})?(?:${HOST_LABEL}\s{1,3}dot\s{1,3}){1,4}${TLD})\b`,
  'gi',
);

function joinSpoken(s: string): string {
  return s
    .replace(/\s+dot\s+/gi, '.')
    .replace(/\s+underscore\s+/gi, '_')
    .replace(/\s+(?:dash|hyphen)\s+/gi, '-');
}

/** Both rewrites need a spoken "dot": most calls have none, and are not scanned for addresses. */
const SPOKEN_DOT = /dot/i;

export function unspeakAddresses(text: string): string {
  if (!SPOKEN_DOT.test(text)) return text;
  return text
    .replace(SPOKEN_EMAIL, (_m, user: string, host: string) => `${joinSpoken(user)}@${joinSpoken(host)}`)
    .replace(SPOKEN_HOST, (m: string) => joinSpoken(m));
}
