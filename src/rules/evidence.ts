import { CUES, type Cue } from './cues.js';
import { anchors, buildHintIndex, windows } from './hint-index.js';
import { isNegated, unpunctuated } from './negation.js';
import { readAmounts } from './intel/amounts.js';

const INDEX = buildHintIndex(CUES);
/** Longer than any cue's match can be, so a window around a hint always holds the whole match. */
const RADIUS = 240;

/** One piece of evidence found in the caller's words. */
export interface Hit {
  cue: Cue;
  /** The caller's own words around the match (a sentence, shortened when long). */
  quote: string;
  /** Where the match starts in everything the caller said (what came first matters: an assurance, then a request). */
  at: number;
}

const globalCopies = new WeakMap<RegExp, RegExp>();
function globalOf(re: RegExp): RegExp {
  let g = globalCopies.get(re);
  if (!g) {
    g = new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g');
    globalCopies.set(re, g);
  }
  return g;
}

/** Finds the first match of a cue inside the windows that is not negated by its clause ("we will never ask for …"). */
function firstMatch(
  cue: Cue,
  text: string,
  spans: ReadonlyArray<[number, number]>,
  spoken: boolean,
): { index: number; length: number } | null {
  const re = globalOf(cue.re);
  for (const [from, to] of spans) {
    const piece = from === 0 && to === text.length ? text : text.slice(from, to);
    re.lastIndex = 0;
    for (let m = re.exec(piece); m; m = re.exec(piece)) {
      const index = from + m.index;
      if (!cue.negatable || !isNegated(text, index, spoken)) return { index, length: m[0].length };
      if (m[0].length === 0) re.lastIndex += 1;
    }
  }
  return null;
}

const SENTENCE_END = /[.!?。！？\n]/;

/** The sentence around a match, cut to about `max` characters on word boundaries. */
export function quoteAround(text: string, index: number, length: number, max = 110): string {
  let start = index;
  while (start > 0 && !SENTENCE_END.test(text[start - 1]!)) start -= 1;
  let end = index + length;
  while (end < text.length && !SENTENCE_END.test(text[end]!)) end += 1;
  let quote = text.slice(start, end).trim();
  if (quote.length > max) {
    const from = Math.max(start, index - Math.floor((max - length) / 2));
    const to = Math.min(end, from + Math.max(max, length));
    let piece = text.slice(from, to);
    if (from > start) piece = piece.replace(/^\S*\s+/, '');
    if (to < end) piece = piece.replace(/\s+\S*$/, '');
    quote = piece.trim();
  }
  return quote.replace(/\s+/g, ' ');
}

/** A match in the amounts-written text, quoted from the caller's own words. */
function hitAt(
  cue: Cue,
  said: string,
  original: (index: number) => number,
  m: { index: number; length: number },
  offset: number,
): Hit {
  const start = original(m.index);
  const end = Math.max(start, original(m.index + m.length));
  return { cue, quote: quoteAround(said, start, end - start), at: offset + start };
}

const same = (index: number): number => index;

/**
 * Runs every cue over a piece of caller text; `skip` holds cue ids already found (incremental scoring).
 * In text without punctuation (a recogniser's), amounts said in words ("fifty percent", "two hundred
 * dollars") are read as written ones first; written text writes them as the cues expect already.
 */
export function findEvidence(spoken: string, skip?: ReadonlySet<string>, offset = 0): Hit[] {
  const hits: Hit[] = [];
  if (!spoken) return hits;
  const lower = spoken.toLowerCase();
  const spokenForm = unpunctuated(spoken);
  const { text, original } = spokenForm ? readAmounts(spoken, lower) : { text: spoken, original: same };
  const at = anchors(INDEX, text === spoken ? lower : text.toLowerCase(), CUES.length);
  for (let i = 0; i < CUES.length; i++) {
    const cue = CUES[i]!;
    const where = at[i];
    if (!where || skip?.has(cue.id)) continue;
    const m = firstMatch(cue, text, windows(text, where, RADIUS), spokenForm);
    if (m) hits.push(hitAt(cue, spoken, original, m, offset));
  }
  return hits;
}

/** The same search without the word index: every regex over the whole text (the reference the index must equal). */
export function findEvidenceExhaustive(spoken: string): Hit[] {
  const hits: Hit[] = [];
  const spokenForm = unpunctuated(spoken);
  const { text, original } = spokenForm ? readAmounts(spoken) : { text: spoken, original: same };
  for (const cue of CUES) {
    const m = firstMatch(cue, text, [[0, text.length]], spokenForm);
    if (m) hits.push(hitAt(cue, spoken, original, m, 0));
  }
  return hits;
}
