/*
 * Text → sparse feature vector for the embedded model.
 *
 * Two groups: hashed word unigrams and bigrams (presence, averaged so a long call weighs no more
 * than a short one), and evidence cues (presence). Speaker labels are stripped first: they
 * differ by data source and would teach the model which corpus a line came from.
 */
import { CUES, findCues, type CueHit } from './evidence.js';

const FNV_OFFSET = 0x811c9dc5;
const SPACE = 0x20;

/** FNV-1a over `text`, continuing from state `h`: the hash of a concatenation is the hash of its parts in turn. */
function fnv1a(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** FNV-1a, 32 bit: a stable hash for feature buckets (the trained weights depend on it never changing). */
export function hash32(text: string): number {
  return fnv1a(FNV_OFFSET, text) >>> 0;
}

/** `hash32(`${a} ${b}`)` without building the string: the bigram buckets of every call. */
export function bigramHash32(hashOfA: number, b: string): number {
  return fnv1a(Math.imul(hashOfA ^ SPACE, 0x01000193) >>> 0, b) >>> 0;
}

export interface FeatureSpace {
  /** Number of hashed n-gram buckets. */
  hashBits: number;
}

export interface SparseVector {
  index: number[];
  value: number[];
}

const LABEL = /^\s*\[?[A-Za-z][A-Za-z ]{0,13}(?:[ _-]?\d{1,2})?\]?\s*:\s*/gm;

/** Text without speaker labels and with straight apostrophes, case kept. */
export function unlabelled(text: string): string {
  return text.replace(LABEL, '').replace(/[’‘`]/g, "'");
}

/** Lower-cased text without speaker labels and with straight apostrophes. */
export function normalise(text: string): string {
  return unlabelled(text).toLowerCase();
}

export function tokens(lower: string): string[] {
  const raw = lower.match(/[\p{L}\p{N}']+/gu) ?? [];
  // Digits vary per call (amounts, numbers); their shape is what generalises.
  return raw.map((t) => (/\d/.test(t) ? t.replace(/\d+/g, '0') : t.replace(/^'+|'+$/g, ''))).filter(Boolean);
}

export function cueOffset(space: FeatureSpace): number {
  return 1 << space.hashBits;
}

export function dimension(space: FeatureSpace): number {
  return cueOffset(space) + CUES.length;
}

export interface Featurised {
  vector: SparseVector;
  hits: CueHit[];
  lower: string;
}

export function featurise(text: string, space: FeatureSpace): Featurised {
  const lower = normalise(text);
  const words = tokens(lower);
  const hits = findCues(lower);
  return { vector: vectorOf(ngramBuckets(words, (1 << space.hashBits) - 1), hits, space), hits, lower };
}

/**
 * The vector of a call's sorted, distinct n-gram buckets and its cue hits: the buckets, then the cues
 * present. `index` (the buckets) becomes the vector's own index and is extended in place.
 */
export function vectorOf(index: number[], hits: readonly CueHit[], space: FeatureSpace): SparseVector {
  // Mean, not L2, normalisation: with L2 the words' share of the margin grows with the square root
  // of the length, and a long honest conversation drifts toward whatever words lean scam.
  const norm = index.length ? 1 / index.length : 0;
  const value = index.map(() => norm);
  const offset = cueOffset(space);
  const present = new Set(hits.filter((h) => h.cue.kind !== 'marker').map((h) => CUES.indexOf(h.cue)));
  for (const c of [...present].sort((a, b) => a - b)) {
    index.push(offset + c);
    value.push(1);
  }
  return { index, value };
}

/**
 * The sorted, distinct buckets of the words' unigrams and bigrams. Collected in a typed array and sorted
 * there (a numeric sort with no comparator calls), then deduplicated in one pass: a Set and a sort of
 * its spread cost a third of a model assessment.
 */
function ngramBuckets(words: readonly string[], mask: number): number[] {
  const all = new Uint32Array(Math.max(0, 2 * words.length - 1));
  let n = 0;
  for (let i = 0; i < words.length; i++) {
    const h = hash32(words[i]!);
    all[n++] = h & mask;
    if (i + 1 < words.length) all[n++] = bigramHash32(h, words[i + 1]!) & mask;
  }
  all.sort();
  const index: number[] = [];
  for (let i = 0; i < n; i++) if (i === 0 || all[i] !== all[i - 1]) index.push(all[i]!);
  return index;
}

export function dot(weights: ArrayLike<number>, v: SparseVector): number {
  let s = 0;
  for (let i = 0; i < v.index.length; i++) s += (weights[v.index[i]!] ?? 0) * v.value[i]!;
  return s;
}
