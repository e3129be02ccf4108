/*
 * The embedded model at inference: a calibrated logistic regression for the scam probability and
 * nearest-centroid for the category. Tactics and signals come from the evidence cues it saw;
 * the summary is extractive (the caller's own sentences), so the model never puts words in a
 * caller's mouth.
 */
import { isVerdictCategory, type VerdictCategory } from '../../../domain/categories.js';
import { clampScore, SUSPICIOUS_AT } from '../../../domain/levels.js';
import type { Tactic } from '../../../domain/tactics.js';
import type { Assessment } from '../../../domain/verdict.js';
import type { Category } from '../../../domain/categories.js';
import { CUE_NAMES, CUES, isStory, summariseCues, type CueHit } from './evidence.js';
import { cueOffset, dimension, dot, featurise, unlabelled, type FeatureSpace, type SparseVector } from './features.js';
import { sigmoid } from './train.js';
import { ruleCategory } from './weak-labels.js';

export interface ModelArtefact {
  format: 'scamlr';
  version: 1;
  /** `local:<name>`, shown in capabilities. */
  id: string;
  hashBits: number;
  /** Evidence cue names in feature order; a mismatch with the code means the artefact is stale. */
  cues: string[];
  bias: number;
  /** Sparse weights: feature index → weight. */
  weights: Record<string, number>;
  platt: { a: number; b: number };
  categories: Array<{ category: VerdictCategory; centroid: Record<string, number> }>;
  /** Below this cosine similarity to every centroid a scam gets the catch-all subject. */
  minCategorySimilarity: number;
  /**
   * Highest score for a call without one evidence or topic cue: style alone ("this is an automated
   * message… press 1") may make a call suspicious, never likely_scam.
   */
  styleCap: number;
  /**
   * Highest score for a call whose one or two cues are none of them decisive (evidence.ts): a claim
   * and a problem without any request of the callee ("fraud department", "suspicious charge"). The data hold almost no
   * honest call with any cue, so one cue alone looks decisive to the regression; an honest "go
   * immediately" or "you could be sued" must not reach the filing band on the model's word alone.
   */
  singleCueCap: number;
  /**
   * Highest score for a call that gives an honest institution's assurance ("we will never ask for
   * your code", "call the number on the back of your card") with at most one decisive request: a
   * fraud alert or a code notice reads the code aloud and warns about it, a scam asks for it back.
   * Absent in artefacts trained before it existed (no cap).
   */
  assuranceCap?: number;
  /**
   * Highest score for a call whose one decisive cue is all it shows (any other cue names the same
   * tactic): a payment app named, a code mentioned, "confirm your date of birth", "don't tell mom",
   * with no pretext, pressure or claim around it. Each cue is a phrase, not a request in context, and honest calls say each of them
   * (friends settle up by app, clinics check a birth date, banks text codes); the scam data never
   * do, so the regression reads any one as proof. Below 0.5: the model alone says `suspicious`, and
   * the rules, which read the request in context, decide above that (`combine`). Absent in artefacts
   * trained before it existed (no cap).
   */
  oneTacticCap?: number;
  trained: Record<string, unknown>;
}

export class ArtefactError extends Error {}

const MAX_SIGNALS = 6;
/** Highest score for a call that tells of a scam call ("I got a call saying I won … that's a scam"). */
const STORY_CAP = 0.45;

/** What an assessment reads of a call: the whole caller text at once (`assess`), or a running call (live.ts). */
export interface CallView {
  vector: SparseVector;
  hits: CueHit[];
  /** The caller's sentences in order (`sentenceSpans`). */
  sentences: Span[];
  /** The subject a category rule names (`ruleCategory`); asked only of a flagged call. */
  subject: () => Category | undefined;
}

/** A category's centroid as its features in index order, so that similarities add up in the vector's order. */
interface Centroid {
  category: VerdictCategory;
  index: Int32Array;
  weight: Float64Array;
}

export class LocalModel {
  readonly id: string;
  readonly space: FeatureSpace;
  private readonly weights: Float64Array;
  private readonly centroids: Centroid[];
  /** A vector's values by feature index while a category is chosen, zero elsewhere (one thread, no awaits). */
  private readonly scratch: Float64Array;

  constructor(private readonly artefact: ModelArtefact) {
    if (artefact.format !== 'scamlr' || artefact.version !== 1) throw new ArtefactError('not a scamlr v1 model');
    if (artefact.cues.join(',') !== CUE_NAMES.join(',')) {
      throw new ArtefactError('model was trained with other evidence cues: run `npm run train`');
    }
    this.id = artefact.id;
    this.space = { hashBits: artefact.hashBits };
    this.weights = new Float64Array(cueOffset(this.space) + CUES.length);
    for (const [k, v] of Object.entries(artefact.weights)) this.weights[Number(k)] = v;
    this.centroids = artefact.categories.map((c) => {
      if (!isVerdictCategory(c.category)) throw new ArtefactError(`unknown category "${c.category}"`);
      const entries = Object.entries(c.centroid)
        .map(([k, v]) => [Number(k), v] as const)
        .sort((x, y) => x[0] - y[0]);
      return {
        category: c.category,
        index: Int32Array.from(entries, (e) => e[0]),
        weight: Float64Array.from(entries, (e) => e[1]),
      };
    });
    this.scratch = new Float64Array(dimension(this.space));
  }

  /** Uncalibrated margin (log-odds before Platt scaling). */
  margin(text: string): number {
    return dot(this.weights, featurise(text, this.space).vector) + this.artefact.bias;
  }

  /** The calibrated probability, before the style cap. */
  probability(text: string): number {
    const { a, b } = this.artefact.platt;
    return sigmoid(a * this.margin(text) + b);
  }

  assess(text: string): Assessment {
    const f = featurise(text, this.space);
    return this.judge({
      vector: f.vector,
      hits: f.hits,
      sentences: sentenceSpans(cased(text, f.lower)),
      subject: () => ruleCategory(f.lower),
    });
  }

  /** The assessment of a call's features: score, caps, category, tactics, quoted signals and summary. */
  judge(f: CallView): Assessment {
    const { a, b } = this.artefact.platt;
    let score = clampScore(sigmoid(a * (dot(this.weights, f.vector) + this.artefact.bias) + b));
    const cues = summariseCues(f.hits);
    if (cues.count === 0) score = Math.min(score, this.artefact.styleCap);
    // A claim and a problem without any request (a bank's fraud alert opens like that too) stays
    // below the filing band; only a request of the callee carries the model's word that far.
    else if (cues.count <= 2 && !cues.decisive) score = Math.min(score, this.artefact.singleCueCap);
    if (cues.decisiveCount === 1 && cues.kinds === 1) score = Math.min(score, this.artefact.oneTacticCap ?? 1);
    if (cues.assured && cues.decisiveCount <= 1) score = Math.min(score, this.artefact.assuranceCap ?? 1);
    // A story about a scam call quotes its words and asks nothing of the listener.
    if (isStory(f.hits)) score = Math.min(score, STORY_CAP);
    const flagged = score >= SUSPICIOUS_AT;
    const evidence = this.rankHits(f.hits);
    const sentences = f.sentences;
    const quoted = uniqueSentences(evidence, sentences);
    const out: Assessment = {
      score,
      category: flagged ? (f.subject() ?? this.category(f.vector)) : 'none',
      tactics: flagged ? tacticsOf(evidence) : [],
      signals: flagged ? quoted.slice(0, MAX_SIGNALS).map((s) => `"${clip(s.text, 160)}"`) : [],
    };
    const summary = extractiveSummary(quoted.length ? quoted : sentences);
    if (summary) out.summary = summary;
    return out;
  }

  /** Hits that raise the score, strongest first (assurances such as "we will never ask" are left out). */
  private rankHits(hits: CueHit[]): CueHit[] {
    const offset = cueOffset(this.space);
    const weightOf = (h: CueHit) => this.weights[offset + CUES.indexOf(h.cue)] ?? 0;
    return hits.filter((h) => weightOf(h) > 0).sort((x, y) => weightOf(y) - weightOf(x) || x.index - y.index);
  }

  /**
   * The nearest centroid by cosine similarity. Each similarity is summed over the centroid's features in
   * index order (a few hundred), not over the vector's (thousands in a long call): the same terms in the
   * same order, since the features the two do not share add zero.
   */
  private category(v: SparseVector): VerdictCategory {
    const norm = Math.sqrt(v.value.reduce((s, x) => s + x * x, 0)) || 1;
    const value = this.scratch;
    for (let i = 0; i < v.index.length; i++) value[v.index[i]!] = v.value[i]!;
    let best: VerdictCategory = 'Scammers';
    let bestSim = this.artefact.minCategorySimilarity;
    for (const { category, index, weight } of this.centroids) {
      let sim = 0;
      for (let k = 0; k < index.length; k++) sim += weight[k]! * value[index[k]!]!;
      sim /= norm;
      if (sim > bestSim) {
        bestSim = sim;
        best = category;
      }
    }
    for (let i = 0; i < v.index.length; i++) value[v.index[i]!] = 0;
    return best;
  }
}

function tacticsOf(hits: CueHit[]): Tactic[] {
  const out = new Set<Tactic>();
  for (const h of hits) if (h.cue.tactic) out.add(h.cue.tactic);
  return [...out];
}

export interface Span {
  start: number;
  end: number;
  text: string;
}

/** The text with labels stripped but case kept, aligned with the lower-cased copy when lengths agree. */
function cased(original: string, lower: string): string {
  const stripped = unlabelled(original);
  return stripped.length === lower.length ? stripped : lower;
}

/** The sentences of a text, `offset` added to their positions; none spans a line. */
export function sentenceSpans(text: string, offset = 0): Span[] {
  const out: Span[] = [];
  const re = /[^.!?\n]+[.!?]*/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const t = m[0].trim();
    if (t.length >= 3) out.push({ start: offset + m.index, end: offset + m.index + m[0].length, text: t });
  }
  return out;
}

/** The sentences that hold the evidence, strongest first, each once. */
function uniqueSentences(hits: CueHit[], sentences: Span[]): Span[] {
  const out: Span[] = [];
  for (const h of hits) {
    const s = sentenceAt(sentences, h.index);
    if (s && !out.includes(s)) out.push(s);
  }
  return out;
}

/** The sentence that holds `index`, by binary search (sentences are in order and do not overlap). */
function sentenceAt(sentences: Span[], index: number): Span | undefined {
  let lo = 0;
  let hi = sentences.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sentences[mid]!.end <= index) lo = mid + 1;
    else hi = mid;
  }
  const s = sentences[lo];
  return s && s.start <= index ? s : undefined;
}

/** At most two of the caller's sentences, in the order spoken. */
function extractiveSummary(spans: Span[]): string | undefined {
  const picked = spans.slice(0, 2).sort((a, b) => a.start - b.start);
  if (!picked.length) return undefined;
  return picked.map((s) => terminate(clip(s.text, 200))).join(' ');
}

function terminate(s: string): string {
  const t = s.replace(/[.!?…]+$/, '');
  return `${t}.`;
}

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1).trimEnd()}…` : s;
}
