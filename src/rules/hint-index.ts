import type { Cue } from './cues.js';

/**
 * A word index over the cues' hints: one pass over the text's words finds, for every cue, where its
 * regex could possibly match. Regexes then run on short windows instead of the whole call.
 */
export interface HintIndex {
  exact: Map<string, number[]>;
  /** Prefix hints, bucketed by their first three letters. */
  prefix: Map<number, Array<{ prefix: string; cues: number[] }>>;
  /** Hints in scripts without spaces between words (Chinese): matched inside runs of such characters. */
  cjk: Array<{ hint: string; cues: number[] }>;
  /** Word → cues it anchors, filled as words are met. */
  memo: Map<string, readonly number[]>;
}

const CJK = /[\u3400-\u9fff]/;

/** The first three letters as one number: a cheap bucket key with no string allocation. */
function prefixKey(w: string): number {
  return (w.charCodeAt(0) << 16) | (w.charCodeAt(1) << 8) | w.charCodeAt(2);
}

export function buildHintIndex(cues: readonly Cue[]): HintIndex {
  const exact = new Map<string, number[]>();
  const prefix = new Map<number, Array<{ prefix: string; cues: number[] }>>();
  const cjk = new Map<string, number[]>();
  cues.forEach((cue, i) => {
    for (const raw of cue.hint) {
      const h = raw.toLowerCase();
      if (CJK.test(h)) cjk.set(h, [...(cjk.get(h) ?? []), i]);
      else if (h.endsWith('*')) {
        const p = h.slice(0, -1);
        if (p.length < 3) throw new Error(`cue ${cue.id}: prefix hint "${raw}" is shorter than 3 letters`);
        const bucket = prefix.get(prefixKey(p)) ?? [];
        const found = bucket.find((b) => b.prefix === p);
        if (found) found.cues.push(i);
        else bucket.push({ prefix: p, cues: [i] });
        prefix.set(prefixKey(p), bucket);
      } else exact.set(h, [...(exact.get(h) ?? []), i]);
    }
  });
  return { exact, prefix, cjk: [...cjk].map(([hint, c]) => ({ hint, cues: c })), memo: new Map() };
}

const NONE: readonly number[] = [];

/** Every cue a word may anchor (exact and prefix hints), memoised: a call's vocabulary is small. */
function cuesForWord(index: HintIndex, raw: string): readonly number[] | undefined {
  const memo = index.memo;
  let hit = memo.get(raw);
  if (hit === undefined) {
    const w = raw.includes('\u2019') ? raw.replace(/\u2019/g, "'") : raw;
    const found: number[] = [...(index.exact.get(w) ?? [])];
    if (w.length >= 3) {
      const bucket = index.prefix.get(prefixKey(w));
      if (bucket) for (const b of bucket) if (w.startsWith(b.prefix)) found.push(...b.cues);
    }
    hit = found.length ? [...new Set(found)] : NONE;
    if (memo.size > 100_000) memo.clear();
    memo.set(raw, hit);
  }
  return hit === NONE ? undefined : hit;
}

function isWordCode(c: number): boolean {
  // a–z, 0–9, &; the text is already lower-cased.
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 38;
}

/** For each cue index, the offsets of words in `lower` that may anchor a match. */
export function anchors(index: HintIndex, lower: string, cueCount: number): Array<number[] | undefined> {
  const out: Array<number[] | undefined> = new Array(cueCount);
  const note = (cues: readonly number[], at: number) => {
    for (const c of cues) {
      const list = (out[c] ??= []);
      if (list[list.length - 1] !== at) list.push(at);
    }
  };
  const n = lower.length;
  let i = 0;
  while (i < n) {
    const c = lower.charCodeAt(i);
    if (isWordCode(c)) {
      const start = i;
      i++;
      // Words keep inner apostrophes ("don't", "sheriff's").
      for (;;) {
        while (i < n && isWordCode(lower.charCodeAt(i))) i++;
        const q = lower.charCodeAt(i);
        if ((q === 39 || q === 0x2019) && i + 1 < n && isWordCode(lower.charCodeAt(i + 1))) i++;
        else break;
      }
      const cues = cuesForWord(index, lower.slice(start, i));
      if (cues) note(cues, start);
    } else if (c >= 0x3400 && c <= 0x9fff) {
      const start = i;
      while (i < n && lower.charCodeAt(i) >= 0x3400 && lower.charCodeAt(i) <= 0x9fff) i++;
      const run = lower.slice(start, i);
      for (const h of index.cjk) {
        const k = run.indexOf(h.hint);
        if (k >= 0) note(h.cues, start + k);
      }
    } else i++;
  }
  return out;
}

/** Merged [start, end) windows of `radius` characters around each anchor, snapped to whitespace. */
export function windows(text: string, at: readonly number[], radius: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const a of at) {
    let s = Math.max(0, a - radius);
    while (s > 0 && !/\s/.test(text[s - 1]!)) s--;
    let e = Math.min(text.length, a + radius);
    while (e < text.length && !/\s/.test(text[e]!)) e++;
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}
