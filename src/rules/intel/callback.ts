import { findPhoneNumbersInText, parsePhoneNumberFromString } from 'libphonenumber-js';
import { allMatches } from '../../util/matches.js';

/** Text just before a position, for "is this a case number or a phone number" questions. */
export function before(text: string, index: number, span = 40): string {
  return text.slice(Math.max(0, index - span), index).toLowerCase();
}

/** A number right after one of these words is a reference, an account or a card, not a number to call. */
const REFERENCE_WORDS =
  /\b(?:case|badge|reference|ref|docket|claim|ticket|order|confirmation|employee|agent|officer|id|account|routing|card|member|policy|invoice|tracking)\s*(?:number|no\.?|id|#|code)?\s*(?:is|was|:)?\s*$/;
/** …except the card a bank tells you to turn over: "call the number on the back of your card, 1-800-…". */
const BACK_OF_CARD = /\b(?:back|front) of (?:your|the) (?:debit |credit |bank )?card\s*$/;

/** Stretches that could hold a phone number; the parser only ever sees these short pieces (linear time). */
const PHONE_CANDIDATE = /(?:\+\s?)?\(?\d[\d\s().-]{5,24}\d/g;
/** A spoken "plus" before the digits is the international prefix: "plus four four twenty …". */
const SPOKEN_PLUS = /\bplus\s{1,3}(?=\d)/gi;

/** A call holds a handful of numbers; past these many candidates a text is noise, not a call. */
const MAX_CANDIDATES = 400;
const MAX_SEARCHES = 40;

/**
 * Numbers the caller gives to be called on, in E.164, from text whose spoken digits are already digits
 * (`digitizeSpoken`). A candidate that does not parse whole is searched for a number inside it, then read
 * as its digit groups: a recogniser that heard "our 800 number, 833-304-1447" may write
 * "800-833-304-1447", and a reader still sees the number in the last three groups.
 */
export function callbackNumbers(digitized: string, region: 'US' = 'US'): string[] {
  const text = digitized.includes('lus') ? digitized.replace(SPOKEN_PLUS, '+') : digitized;
  const out: string[] = [];
  const keep = (e164: string, at: number) => {
    const ctx = before(text, at, 30);
    if (REFERENCE_WORDS.test(ctx) && !BACK_OF_CARD.test(ctx)) return;
    if (!out.includes(e164)) out.push(e164);
  };
  let candidates = 0;
  let searches = 0;
  for (const m of allMatches(PHONE_CANDIDATE, text, MAX_CANDIDATES + 1)) {
    if (++candidates > MAX_CANDIDATES) break;
    const start = m.index ?? 0;
    const raw = m[0].trim();
    const digits = raw.replace(/\D/g, '');
    if (digits.length < 7) continue;
    // The common case, one whole number, parses directly; anything else is searched (bounded).
    const direct = digits.length <= 15 ? parsePhoneNumberFromString(raw, region) : undefined;
    if (direct?.isValid()) {
      keep(direct.number, start);
      continue;
    }
    if (++searches > MAX_SEARCHES) continue;
    let found = false;
    for (const f of findPhoneNumbersInText(raw, region)) {
      if (!f.number.isValid()) continue;
      keep(f.number.number, start + f.startsAt);
      found = true;
    }
    if (!found) {
      const grouped = fromGroups(raw, region) ?? afterTollFreeWord(digits, region);
      if (grouped) keep(grouped, start);
    }
  }
  return out;
}

/**
 * "Call our 800 number, 833 304 1447" said without a pause: a toll-free prefix word run into the number
 * it introduces ("8008333041447"). Only a toll-free code is read off, so no long reference number becomes
 * a phone number by losing its first digits.
 */
const TOLL_FREE_WORD = /^1?8(?:00|88|77|66|55|44|33)(?=\d{10,11}$)/;

function afterTollFreeWord(digits: string, region: 'US'): string | undefined {
  const prefix = TOLL_FREE_WORD.exec(digits);
  if (!prefix) return undefined;
  const n = parsePhoneNumberFromString(digits.slice(prefix[0].length), region);
  return n?.isValid() ? n.number : undefined;
}

/** The last run of whole digit groups that is a valid number on its own: "800-833-304-1447" → +18333041447. */
function fromGroups(raw: string, region: 'US'): string | undefined {
  const groups = raw.split(/[^\d]+/).filter(Boolean);
  if (groups.length < 3 || groups.length > 8) return undefined;
  for (let from = 1; from < groups.length; from++) {
    const tail = groups.slice(from).join('');
    if (tail.length < 10) break;
    const n = parsePhoneNumberFromString(tail, region);
    if (n?.isValid()) return n.number;
  }
  return undefined;
}
