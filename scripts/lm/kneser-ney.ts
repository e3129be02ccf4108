/*
 * A trigram language model in ARPA form: interpolated Kneser-Ney on the domain sentences, whose
 * lowest order is mixed with a general-English unigram distribution, so a word the calls never used
 * keeps a fair chance and ordinary speech still decodes. Pure and deterministic (sorted output).
 *
 * Back-off weights are found by renormalising each context (as SRILM does), which stays exact when
 * rare trigrams are pruned to keep the shipped model small.
 */

export interface LmOptions {
  /** Words the model may emit (each must have a pronunciation). Others count as <unk> and are dropped. */
  vocab: ReadonlySet<string>;
  /** General-English unigram probabilities (need not be normalised over vocab). */
  general: ReadonlyMap<string, number>;
  /** Share of the lowest order given to the general distribution. */
  generalWeight: number;
  /** Trigrams seen fewer times are left to back-off. */
  minTrigramCount: number;
}

const BOS = '<s>';
const EOS = '</s>';
const UNK = '<unk>';
const SEP = '\u0001';

type Counts = Map<string, number>;
const bump = (m: Counts, k: string, by = 1): void => void m.set(k, (m.get(k) ?? 0) + by);

/** Discount from counts of counts (Ney's estimate), clamped to a sane range. */
function discount(counts: Iterable<number>): number {
  let n1 = 0;
  let n2 = 0;
  for (const c of counts) {
    if (c === 1) n1++;
    else if (c === 2) n2++;
  }
  const d = n1 + 2 * n2 > 0 ? n1 / (n1 + 2 * n2) : 0.5;
  return Math.min(0.9, Math.max(0.1, d));
}

/** Per context: total count, number of distinct followers. */
function contexts(counts: Counts): Map<string, { total: number; types: number }> {
  const out = new Map<string, { total: number; types: number }>();
  for (const [k, c] of counts) {
    const h = k.slice(0, k.lastIndexOf(SEP));
    const e = out.get(h) ?? { total: 0, types: 0 };
    e.total += c;
    e.types += 1;
    out.set(h, e);
  }
  return out;
}

const log10 = (p: number): string => (p > 0 ? Math.log10(p).toFixed(6) : '-99.000000');

export function buildArpa(sentences: ReadonlyArray<readonly string[]>, opts: LmOptions): string {
  const c3: Counts = new Map();
  const c2: Counts = new Map();
  for (const s of sentences) {
    const w = [BOS, ...s.map((x) => (opts.vocab.has(x) ? x : UNK)), EOS];
    for (let i = 1; i < w.length; i++) {
      bump(c2, w[i - 1] + SEP + w[i]);
      if (i >= 2) bump(c3, w[i - 2] + SEP + w[i - 1] + SEP + w[i]);
    }
  }
  // Continuation counts: in how many distinct left contexts an n-gram appears.
  const cc2: Counts = new Map();
  for (const k of c3.keys()) bump(cc2, k.slice(k.indexOf(SEP) + 1));
  for (const [k, c] of c2) if (k.startsWith(BOS + SEP)) cc2.set(k, c); // nothing precedes <s>
  const cc1: Counts = new Map();
  for (const k of c2.keys()) bump(cc1, k.slice(k.indexOf(SEP) + 1));

  // Lowest order: KN continuation distribution mixed with general English, over the vocabulary.
  const words = [...opts.vocab, EOS].filter((w) => w !== BOS).sort();
  let ccTotal = 0;
  for (const w of words) ccTotal += cc1.get(w) ?? 0;
  let genTotal = 0;
  for (const w of words) genTotal += opts.general.get(w) ?? 0;
  const floor = 1e-9;
  const p1 = new Map<string, number>();
  for (const w of words) {
    const kn = (cc1.get(w) ?? 0) / ccTotal;
    const gen = genTotal > 0 ? (opts.general.get(w) ?? 0) / genTotal : 0;
    p1.set(w, (1 - opts.generalWeight) * kn + opts.generalWeight * gen + floor);
  }
  let z = 0;
  for (const p of p1.values()) z += p;
  for (const [w, p] of p1) p1.set(w, p / z);

  const d2 = discount(cc2.values());
  const d3 = discount(c3.values());
  const ctx2 = contexts(cc2);
  const ctx3 = contexts(c3);
  const known = (k: string): boolean => !k.split(SEP).includes(UNK);

  const p2 = new Map<string, number>();
  for (const [k, c] of cc2) {
    if (!known(k)) continue;
    const [v, w] = k.split(SEP) as [string, string];
    const h = ctx2.get(v)!;
    p2.set(k, Math.max(c - d2, 0) / h.total + ((d2 * h.types) / h.total) * p1.get(w)!);
  }
  const bo1 = backoffs(p2, (w) => p1.get(w)!);
  const lower2 = (v: string, w: string): number => p2.get(v + SEP + w) ?? (bo1.get(v) ?? 1) * p1.get(w)!;

  const p3 = new Map<string, number>();
  for (const [k, c] of c3) {
    if (c < opts.minTrigramCount || !known(k)) continue;
    const [u, v, w] = k.split(SEP) as [string, string, string];
    const h = ctx3.get(u + SEP + v)!;
    p3.set(k, Math.max(c - d3, 0) / h.total + ((d3 * h.types) / h.total) * lower2(v, w));
  }
  const bo2 = backoffs(p3, (vw) => {
    const [v, w] = vw.split(SEP) as [string, string];
    return lower2(v, w);
  });

  const lines = ['\\data\\', `ngram 1=${words.length + 1}`, `ngram 2=${p2.size}`, `ngram 3=${p3.size}`, ''];
  lines.push('\\1-grams:', `-99.000000\t${BOS}\t${log10(bo1.get(BOS) ?? 1)}`);
  for (const w of words) lines.push(`${log10(p1.get(w)!)}\t${w}\t${log10(bo1.get(w) ?? 1)}`);
  lines.push('', '\\2-grams:');
  for (const k of [...p2.keys()].sort()) {
    lines.push(`${log10(p2.get(k)!)}\t${k.split(SEP).join(' ')}\t${log10(bo2.get(k) ?? 1)}`);
  }
  lines.push('', '\\3-grams:');
  for (const k of [...p3.keys()].sort()) lines.push(`${log10(p3.get(k)!)}\t${k.split(SEP).join(' ')}`);
  lines.push('', '\\end\\', '');
  return lines.join('\n');
}

/**
 * α(h) = (1 − Σ explicit p(w|h)) / (1 − Σ explicit p_lower(w|h')) for every context h of `explicit`
 * (keys "h…SEP w"); `lower` gets the key without its first word.
 */
function backoffs(explicit: Map<string, number>, lower: (rest: string) => number): Map<string, number> {
  const sums = new Map<string, [number, number]>();
  for (const [k, p] of explicit) {
    const h = k.slice(0, k.lastIndexOf(SEP));
    const s = sums.get(h) ?? [0, 0];
    s[0] += p;
    s[1] += lower(k.slice(k.indexOf(SEP) + 1));
    sums.set(h, s);
  }
  const out = new Map<string, number>();
  for (const [h, [num, den]] of sums) out.set(h, Math.max(1e-12, 1 - num) / Math.max(1e-12, 1 - den));
  return out;
}
