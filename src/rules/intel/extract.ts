import type { Intel, IntelListField } from '../../domain/intel.js';
import { allMatches } from '../../util/matches.js';
import { before, callbackNumbers } from './callback.js';
import { abaValid, base58CheckBitcoin, bech32Bitcoin, ethereumAddress, luhnValid } from './checksums.js';
import { GIFT_CARD_BRANDS, PAYMENT_APPS, REMOTE_TOOLS, findLexicon } from './lexicons.js';
import { canonicalOrganizations, names, organizations } from './parties.js';
import { digitizeSpoken, unspeakAddresses } from './spoken.js';

export { callbackNumbers } from './callback.js';
export { names, organizations } from './parties.js';

type Acc = { [K in IntelListField]?: string[] };

/** No intel field keeps more than this many values: a call gives away a handful, a text with hundreds is noise. */
export const MAX_PER_FIELD = 50;

function add(acc: Acc, field: IntelListField, value: string | undefined): void {
  const v = value?.trim();
  if (!v) return;
  const list = (acc[field] ??= []);
  if (list.length < MAX_PER_FIELD && !list.some((x) => x.toLowerCase() === v.toLowerCase())) list.push(v);
}

// ── e-mail and web addresses ─────────────────────────────────────────────────────────────────
// Repetitions are bounded so no input makes these regexes backtrack quadratically.
const EMAIL = /\b[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,4}\.[A-Za-z]{2,24}\b/g;
const URL_RE =
  /\b(?:https?:\/\/[^\s<>"')]+|www\.[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,4}(?:\/[^\s<>"')]*)?|[A-Za-z0-9-]{2,63}(?:\.[A-Za-z0-9-]{2,63}){0,4}\.(?:com|net|org|info|biz|us|co|io|gov|xyz|online|site|support|help|live|app)(?:\/[^\s<>"')]*)?)(?![A-Za-z0-9@-])/g;

export function emailsAndUrls(text: string): { emails: string[]; urls: string[] } {
  const t = unspeakAddresses(text);
  // An address needs its "@": most calls have none, and are not scanned for one.
  const emails = t.includes('@')
    ? [...new Set(allMatches(EMAIL, t).map((m) => m[0].toLowerCase()))].slice(0, MAX_PER_FIELD)
    : [];
  const urls: string[] = [];
  for (const m of allMatches(URL_RE, t)) {
    if (urls.length >= MAX_PER_FIELD) break;
    const start = m.index ?? 0;
    if (t[start - 1] === '@') continue; // the domain of an e-mail address
    const url = m[0].replace(/[.,;:!?]+$/, '');
    if (/^\d+(\.\d+)*$/.test(url.replace(/\.(com|net|org)$/, ''))) continue;
    if (!urls.some((u) => u.toLowerCase() === url.toLowerCase())) urls.push(url);
  }
  return { emails, urls };
}

// ── crypto wallets ───────────────────────────────────────────────────────────────────────────
const WALLET =
  /\b(?:[13][1-9A-HJ-NP-Za-km-z]{25,34}|bc1[02-9ac-hj-np-z]{11,87}|BC1[02-9AC-HJ-NP-Z]{11,87}|0x[0-9a-fA-F]{40})\b/g;

export function cryptoWallets(text: string): string[] {
  const out: string[] = [];
  for (const m of allMatches(WALLET, text)) {
    if (out.length >= MAX_PER_FIELD) break;
    const a = m[0];
    const ok = a.startsWith('0x') ? ethereumAddress(a) : /^bc1/i.test(a) ? bech32Bitcoin(a) : base58CheckBitcoin(a);
    if (ok && !out.includes(a)) out.push(a);
  }
  return out;
}

// ── card, bank and routing numbers ───────────────────────────────────────────────────────────
/** Digit groups as people say or write them: "4111 1111 1111 1111", "4111-1111-1111-1111". */
const DIGIT_GROUPS = /\b\d(?:[ -]?\d){5,18}\b/g;

export function financialNumbers(digitized: string): { cards: string[]; banks: string[] } {
  const cards: string[] = [];
  const banks: string[] = [];
  for (const m of allMatches(DIGIT_GROUPS, digitized)) {
    if (cards.length >= MAX_PER_FIELD || banks.length >= MAX_PER_FIELD) break;
    const digits = m[0].replace(/\D/g, '');
    const ctx = before(digitized, m.index ?? 0, 50);
    if (digits.length >= 13 && /^[3-6]/.test(digits) && luhnValid(digits)) {
      if (!cards.includes(digits)) cards.push(digits);
      continue;
    }
    if (digits.length === 9 && abaValid(digits) && /\b(?:routing|aba|transit)\b/.test(ctx)) {
      add({ bank_accounts: banks } as Acc, 'bank_accounts', `routing ${digits}`);
      continue;
    }
    if (
      digits.length >= 6 &&
      digits.length <= 17 &&
      /\b(?:account|acct|iban|checking|savings)\b[^.]{0,25}$/.test(ctx)
    ) {
      if (/\b(?:case|reference|order|member|policy)\b/.test(ctx.slice(-20))) continue;
      add({ bank_accounts: banks } as Acc, 'bank_accounts', `account ${digits}`);
    }
  }
  const iban = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?\b/g;
  for (const m of allMatches(iban, digitized))
    if (ibanValid(m[0])) add({ bank_accounts: banks } as Acc, 'bank_accounts', `iban ${m[0].replace(/ /g, '')}`);
  return { cards, banks };
}

function ibanValid(raw: string): boolean {
  const s = raw.replace(/ /g, '');
  if (s.length < 15 || s.length > 34) return false;
  const moved = s.slice(4) + s.slice(0, 4);
  let rem = 0;
  for (const ch of moved) {
    const v = /\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of v) rem = (rem * 10 + Number(d)) % 97;
  }
  return rem === 1;
}

// ── remote-session codes ─────────────────────────────────────────────────────────────────────
const REMOTE_CODE =
  /\b(?:any ?desk|team ?viewer|ultra ?viewer|remote|session|connection|access|partner|support|desk)\s*(?:id|code|number|pin|key|address)?\s*(?:is|was|:|will be)?\s*((?:\d[ -]?){6,12}\d?)\b/gi;

export function remoteCodes(digitized: string): string[] {
  const out: string[] = [];
  for (const m of allMatches(REMOTE_CODE, digitized)) {
    if (out.length >= MAX_PER_FIELD) break;
    const code = (m[1] ?? '').replace(/\D/g, '');
    if (code.length >= 6 && code.length <= 12 && !out.includes(code)) out.push(code);
  }
  return out;
}

// ── case, badge and reference numbers ────────────────────────────────────────────────────────
// A letter prefix said apart from its digits ("badge number is irs 20931", as a recogniser writes
// "IRS-20931") is kept with them; a word that is no prefix ("is", "the") is not.
const CASE_NO =
  /\b(?:case|badge|reference|ref|docket|claim|ticket|complaint|file|order|confirmation|employee|agent|officer|warrant|incident|tracking|id)\s*(?:number|no\.?|id|#)\s*(?:is|was|:)?\s*#?\s*((?!(?:is|it|at|to|on|in|of|or|and|the|for|my|our|was|now|one|two|six|ten)\s)[A-Z]{2,4} \d{3,12}|[A-Z0-9][A-Z0-9-]{2,20})\b|\b(?:badge|agent|officer|case)\s+#?([A-Z]{1,4}-?\d{2,10})\b|\b(?:order|case|ticket)\s+(?:number\s+)?#?\s*([A-Z]{2,5}\d{3,12})\b/gi;

export function caseNumbers(digitized: string): string[] {
  const out: string[] = [];
  for (const m of allMatches(CASE_NO, digitized)) {
    if (out.length >= MAX_PER_FIELD) break;
    const v = (m[1] ?? m[2] ?? m[3] ?? '').replace(/-$/, '').replace(' ', '-');
    if (!/\d/.test(v) || v.length < 3) continue;
    if (!out.some((x) => x.toLowerCase() === v.toLowerCase())) out.push(v.toUpperCase());
  }
  return out;
}

// ── amounts ──────────────────────────────────────────────────────────────────────────────────
const NUM_WORDS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const WORD_AMOUNT = new RegExp(
  String.raw`\b((?:(?:${Object.keys(NUM_WORDS).join('|')}|hundred|thousand|million|and|a)[\s-]{1,3}){1,10})(dollars|bucks)\b`,
  'gi',
);

function wordsToNumber(words: string): number | null {
  let total = 0;
  let current = 0;
  let any = false;
  for (const w of words
    .toLowerCase()
    .split(/[\s-]+/)
    .filter(Boolean)) {
    if (w === 'and') continue;
    if (w === 'a') {
      current = current || 1;
      continue;
    }
    if (w in NUM_WORDS) {
      current += NUM_WORDS[w]!;
      any = true;
    } else if (w === 'hundred') current = (current || 1) * 100;
    else if (w === 'thousand' || w === 'million') {
      total += (current || 1) * (w === 'thousand' ? 1000 : 1_000_000);
      current = 0;
      any = true;
    }
  }
  return any ? total + current : null;
}

function money(n: number): string {
  const cents = Math.round(n * 100);
  const whole = Math.floor(cents / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const frac = cents % 100;
  return frac ? `$${whole}.${String(frac).padStart(2, '0')}` : `$${whole}`;
}

/** A call names a handful of sums; a text naming hundreds is not a call, and is not worth reading further. */
const MAX_AMOUNTS = 50;
/** "$1,200", "$5k", "$2.50 million". */
const DOLLARS = /\$\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d{1,2})?\s*(k|thousand|million)?\b/gi;
/** "1,200 dollars", "5 thousand usd". */
const NUMBER_DOLLARS = /\b(\d{1,3}(?:,\d{3})+|\d+)(\.\d{1,2})?\s*(thousand\s+)?(?:dollars|usd|bucks)\b/gi;

export function amounts(text: string): string[] {
  const out = new Set<string>();
  const push = (n: number) => {
    if (!Number.isFinite(n) || n <= 0 || out.size >= MAX_AMOUNTS) return;
    out.add(money(n));
  };
  for (const m of allMatches(DOLLARS, text)) {
    const base = Number((m[1] ?? '').replace(/,/g, '') + (m[2] ?? ''));
    const mult = /^k|thousand/i.test(m[3] ?? '') ? 1000 : /million/i.test(m[3] ?? '') ? 1_000_000 : 1;
    push(base * mult);
  }
  for (const m of allMatches(NUMBER_DOLLARS, text)) {
    push(Number((m[1] ?? '').replace(/,/g, '') + (m[2] ?? '')) * (m[3] ? 1000 : 1));
  }
  for (const m of allMatches(WORD_AMOUNT, text)) {
    const n = wordsToNumber(m[1] ?? '');
    if (n !== null) push(n);
  }
  return [...out];
}

// ── street addresses ─────────────────────────────────────────────────────────────────────────
const STREET_WORDS = [
  'street',
  'st',
  'avenue',
  'ave',
  'road',
  'rd',
  'boulevard',
  'blvd',
  'lane',
  'ln',
  'drive',
  'dr',
  'court',
  'ct',
  'way',
  'place',
  'pl',
  'highway',
  'hwy',
  'parkway',
  'pkwy',
  'circle',
  'cir',
  'terrace',
];
/** Street suffixes in lower or capitalised form; street names themselves must be capitalised. */
const STREET = `(?:${STREET_WORDS.flatMap((w) => [w, w[0]!.toUpperCase() + w.slice(1)]).join('|')})`;
const ADDRESS = new RegExp(
  String.raw`\b\d{1,6}\s+(?:[NSEW]\.?\s+)?(?:[A-Z][a-z]+\s+){1,3}${STREET}\b\.?(?:,?\s+(?:(?:suite|apt|unit|#)\s*\w+,?\s+)?[A-Z][a-z]+(?:\s[A-Z][a-z]+)?(?:,?\s+[A-Z]{2})?(?:\s+\d{5}(?:-\d{4})?)?)?|\bP\.?\s?O\.?\s+Box\s+\d+`,
  'g',
);

export function addresses(text: string): string[] {
  return [...new Set(allMatches(ADDRESS, text).map((m) => m[0].replace(/[.,]+$/, '').trim()))];
}

/**
 * Every intel field the caller's words can yield (DTMF and `scripts` come from elsewhere). The caller's
 * text has one utterance a line, and nothing is read across two: a name, an organisation or a number
 * never runs from one utterance into the next.
 */
export function extractIntel(text: string): Intel {
  const acc: Acc = {};
  if (!text.trim()) return {};
  for (const line of text.split('\n')) if (line.trim()) extractLine(line, acc);
  return acc;
}

function extractLine(text: string, acc: Acc): void {
  const digitized = digitizeSpoken(text);
  for (const n of names(text)) add(acc, 'names', n);
  for (const o of organizations(text)) add(acc, 'organizations', o);
  for (const n of callbackNumbers(digitized)) add(acc, 'callback_numbers', n);
  const { emails, urls } = emailsAndUrls(text);
  for (const e of emails) add(acc, 'emails', e);
  for (const u of urls) add(acc, 'urls', u);
  for (const w of cryptoWallets(text)) add(acc, 'crypto_wallets', w);
  const { cards, banks } = financialNumbers(digitized);
  for (const b of banks) add(acc, 'bank_accounts', b);
  for (const c of cards) add(acc, 'card_numbers', c);
  for (const g of findLexicon(text, GIFT_CARD_BRANDS)) add(acc, 'gift_card_brands', g);
  for (const p of findLexicon(text, PAYMENT_APPS)) add(acc, 'payment_apps', p);
  for (const r of findLexicon(text, REMOTE_TOOLS)) add(acc, 'remote_tools', r);
  for (const c of remoteCodes(digitized)) add(acc, 'remote_codes', c);
  for (const c of caseNumbers(digitized)) add(acc, 'case_numbers', c);
  for (const a of amounts(text)) add(acc, 'amounts', a);
  for (const a of addresses(text)) add(acc, 'addresses', a);
  // A number read out as a remote code or a card is not also a callback number.
  if (acc.callback_numbers) {
    const taken = new Set([...(acc.remote_codes ?? []), ...(acc.card_numbers ?? [])]);
    acc.callback_numbers = acc.callback_numbers.filter((n) => !taken.has(n.replace(/^\+1?/, '')));
    if (!acc.callback_numbers.length) delete acc.callback_numbers;
  }
}

/** Another extractor's intel with its organisations in the rules' canonical form (see `canonicalOrganizations`). */
export function canonicalIntel(intel: Intel | undefined): Intel | undefined {
  if (!intel?.organizations) return intel;
  return { ...intel, organizations: intel.organizations.flatMap(canonicalOrganizations) };
}
