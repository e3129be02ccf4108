/*
 * Who the caller says they are: the names they introduce themselves with and the organisations they claim
 * to call from. Both are copied into filed complaints and counted in `intel_count`, so each is one clean
 * entry (a canonical label, no sentence fragment, no trailing punctuation), read one utterance at a time.
 */
import { allMatches } from '../../util/matches.js';
import { GIFT_CARD_BRANDS, ORGANIZATIONS, PAYMENT_APPS, REMOTE_TOOLS, findLexicon } from './lexicons.js';

const MAX = 50;

// ── organisations ────────────────────────────────────────────────────────────────────────────
/**
 * Brands said as what to pay with or what was bought are not organisations the caller claims:
 * "buy Apple gift cards", "pay through Cash App or with PayPal", "an order for an Apple MacBook".
 */
const BOUGHT = new RegExp(
  [
    ...GIFT_CARD_BRANDS.map((e) => e.re.source),
    String.raw`\b(?:apple|samsung|sony|dell|microsoft)\s+(?:mac ?book(?: pro| air)?|iphone(?: \d+)?|air ?pods?|ipad|i ?watch|watch|laptop|computer|tv|galaxy|surface|xbox|playstation)\b`,
  ].join('|'),
  'gi',
);
/** A sentence about paying: any rail named in it after "through", "with", "or" … is what to pay with. */
const PAYING = /\b(?:pay|paid|paying|payment|send|sent|sending|transfer\w*|wire|buy|purchase|load)\b/i;
const RAIL =
  /\b(?:via|through|with|by|using|over|on|into|or)\s+(?:a |an |the |your )?(?:pay ?pal|cash ?app|venmo|zelle|visa|mastercard)\b/gi;

/** Blanks the spans of `re` in `text`, keeping every other character where it was. */
function mask(text: string, re: RegExp): string {
  return text.replace(re, (m) => ' '.repeat(m.length));
}

function claimable(line: string): string {
  const text = mask(line, BOUGHT);
  if (!PAYING.test(text)) return text;
  return text.replace(/[^.!?]+[.!?]*/g, (sentence) => (PAYING.test(sentence) ? mask(sentence, RAIL) : sentence));
}

const ORG_PHRASE =
  /\b(?:calling (?:you )?(?:from|with)|(?:this|call) is from|on behalf of|with the|from the|here at|representing)[ \t]+((?:the[ \t]+)?(?:[A-Z][A-Za-z&.'-]*|of|and|for)(?:[ \t]+(?:[A-Z][A-Za-z&.'-]*|of|and|for)){0,6})/g;

/** Abbreviations whose full stop does not end the sentence: "U.S.", "Inc.", "Dept.". */
const ABBREVIATION = /^(?:(?:[A-Z]\.){1,4}|Inc\.|Co\.|Corp\.|Ltd\.|Dept\.|St\.|Bros\.)$/;
/** Capitalised words that open a sentence or a greeting rather than name an organisation. */
const NOT_ORG_START = /^(?:I|You|We|Your|My|Our|This|That|The|It|He|She|They|Please|Press|Thank|Thanks|Hello|Hi|Dear)$/;

/** The organisation a phrase names, cut at the end of its sentence, or '' when it names none. */
function orgFromPhrase(phrase: string): string {
  const kept: string[] = [];
  for (const token of phrase.split(/[ \t]+/)) {
    if (ABBREVIATION.test(token)) {
      kept.push(token);
      continue;
    }
    const bare = token.replace(/[.,;:!?'-]+$/, '');
    if (bare) kept.push(bare);
    if (bare !== token) break; // "Service." / "Center," ends the name
  }
  while (kept.length && /^(?:of|and|for)$/i.test(kept[kept.length - 1]!)) kept.pop();
  if (/^the$/i.test(kept[0] ?? '')) kept.shift();
  const org = kept.join(' ').replace(/\.$/, (dot) => (ABBREVIATION.test(kept[kept.length - 1] ?? '') ? dot : ''));
  if (!org || NOT_ORG_START.test(kept[0]!)) return '';
  if (kept.length === 1 && org.length < 3) return '';
  return org;
}

function sameOrg(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x === y || x.includes(y) || y.includes(x);
}

/**
 * Organisations the caller claims, one entry each: a known organisation under its canonical label however
 * it was said ("Internal Revenue Service", "IRS" → `IRS`), any other by the capitalised name after "calling
 * from", "on behalf of" … up to the end of its sentence.
 */
export function organizations(line: string): string[] {
  const text = claimable(line);
  const out = findLexicon(text, ORGANIZATIONS);
  for (const m of allMatches(ORG_PHRASE, text)) {
    if (out.length >= MAX) break;
    const org = orgFromPhrase(m[1] ?? '');
    // A phrase naming a known organisation ("the Internal Revenue Service", "AT&T Direct TV") is its label.
    if (!org || findLexicon(org, ORGANIZATIONS).length) continue;
    if (!out.some((x) => sameOrg(x, org))) out.push(org);
  }
  return out;
}

// ── names ────────────────────────────────────────────────────────────────────────────────────
/** Capitalised words after "this is" / "I am" that are no one's name. */
const NOT_NAMES = new Set(
  (
    'calling from with the your a an just not sorry here going trying glad important urgent regarding about to ' +
    'very so really in on at fine good okay ok well ready sure social final hello hi attention congratulations ' +
    'dear thank thanks please press again yes no also today tomorrow tonight now this that our my his her their ' +
    'monday tuesday wednesday thursday friday saturday sunday january february march may july ' +
    'september october november december customer customers support service services department center centre ' +
    'bank card credit account security federal national government police office agency administration team ' +
    'company corporation group insurance medicare warranty vehicle dealer processing student students legal ' +
    'fraud billing technical tech home health care protection united american us usa automated recorded robot ' +
    'notification message reminder courtesy official officer agent detective sergeant inspector investigator ' +
    'deputy mr mrs ms dr the'
  ).split(' '),
);
/** In text without capitals (speech recognition), only these words may follow a name, so the name is bounded. */
const AFTER_NAME = String.raw`(?:with|from|calling|here|at|on behalf|and|i|i'm|speaking|your|over|of)`;
/** Function words and common words that a lower-case introduction can run into: never a name. */
const COMMON = new Set(
  (
    'a an the and or but if of in on at to for from with by about as is are was were be been am i you he she it ' +
    'we they me my your our his her its their this that these those what who how why when where which not no ' +
    'yes so just very really calling call going trying here there now today important urgent regarding kind ' +
    'sure fine good okay ok well ready glad sorry hello hi up out back over one two three four five six seven ' +
    'eight nine ten have has had do does did will would can could should may might must an automated message ' +
    'reminder final notice officer agent detective speaking'
  ).split(' '),
);

const TITLE = String.raw`(?:[Oo]fficer|[Aa]gent|[Dd]etective|[Ss]ergeant|[Ii]nspector|[Ii]nvestigator|[Dd]eputy|Dr\.?|Mr\.?|Mrs\.?|Ms\.?)`;
/** Introductions ("my name is …", "this is Officer …"); the name itself must be capitalised. */
const NAME = new RegExp(
  String.raw`\b(?:[Mm]y name is|[Tt]his is|I am|I'm|[Ss]peaking with|[Ii]t's)[ \t]+(${TITLE}[ \t]+)?([A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+)?)\b|\b(${TITLE})[ \t]+([A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+)?)\b`,
  'g',
);
const LOWER_TITLE = String.raw`(?:officer|agent|detective|sergeant|inspector|investigator|deputy)`;
/** The same introductions as speech recognition writes them, all lower case. */
const LOWER_NAME = new RegExp(
  String.raw`\b(?:my name(?: is|'s)[ \t]+(${LOWER_TITLE}[ \t]+)?([a-z]{2,20}(?:[ \t]+[a-z]{2,20})?)|this is[ \t]+(${LOWER_TITLE}[ \t]+)?([a-z]{2,20}(?:[ \t]+[a-z]{2,20})?)[ \t]+${AFTER_NAME}\b)`,
  'g',
);

/** Every word a name-like word and nothing a brand, a tool or a payment rail. */
function isName(words: readonly string[]): boolean {
  if (!words.length) return false;
  if (words.some((w) => NOT_NAMES.has(w.toLowerCase()))) return false;
  const joined = words.join(' ');
  for (const lex of [ORGANIZATIONS, GIFT_CARD_BRANDS, PAYMENT_APPS, REMOTE_TOOLS])
    if (findLexicon(joined, lex).length) return false;
  return true;
}

const capital = (w: string) => w[0]!.toUpperCase() + w.slice(1);

function introduced(title: string, name: string[]): string {
  const t = title.trim();
  return t ? `${capital(t)} ${name.join(' ')}` : name.join(' ');
}

/** Names the caller introduces themselves (or a colleague) with, as "Officer James Miller" or "Daniel Brooks". */
export function names(line: string): string[] {
  const out: string[] = [];
  const push = (full: string, last: string) => {
    if (out.length < MAX && !out.some((x) => x.toLowerCase().endsWith(last.toLowerCase()))) out.push(full);
  };
  for (const m of allMatches(NAME, line)) {
    const words = (m[2] ?? m[4] ?? '').split(/[ \t]+/).filter(Boolean);
    // "This is Chase Bank": one word that is no name makes the whole phrase no name.
    if (isName(words)) push(introduced(m[1] ?? m[3] ?? '', words), words.join(' '));
  }
  if (/[A-Z]/.test(line)) return out;
  for (const m of allMatches(LOWER_NAME, line)) {
    const words = (m[2] ?? m[4] ?? '').split(/[ \t]+/).filter(Boolean);
    while (words.length && COMMON.has(words[words.length - 1]!)) words.pop();
    if (!words.length || words.some((w) => COMMON.has(w)) || !isName(words)) continue;
    const cased = words.map(capital);
    push(introduced(m[1] ?? m[3] ?? '', cased), cased.join(' '));
  }
  return out;
}

/**
 * An organisation another extractor (a remote model) reported, in the rules' form: a known one under its
 * canonical label, any other cut at its sentence's end and without trailing punctuation. So the same
 * organisation from two extractors is one fact in `intel_count` and in a filed complaint.
 */
export function canonicalOrganizations(value: string): string[] {
  const line = value.split('\n')[0]!.trim();
  const known = findLexicon(line, ORGANIZATIONS);
  if (known.length) return known;
  const org = orgFromPhrase(line.replace(/\s+/g, ' ')) || line.replace(/[\s.,;:!?'-]+$/, '');
  return org ? [org] : [];
}
