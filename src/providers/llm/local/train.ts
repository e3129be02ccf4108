/*
 * Training of the embedded model: pure functions, deterministic (fixed order, no randomness),
 * so `npm run train` reproduces the shipped artefact byte for byte from the same data.
 */
import type { VerdictCategory } from '../../../domain/categories.js';
import { CUES } from './evidence.js';

/** Per-feature L2 penalty: topic cues strong, evidence cues weak, words on their own scale. */
function penalties(space: FeatureSpace, o: LogisticOptions): Float64Array {
  const offset = cueOffset(space);
  const out = new Float64Array(dimension(space)).fill(o.l2Words);
  CUES.forEach((c, i) => {
    out[offset + i] = c.kind === 'evidence' ? o.l2Cues : o.l2Topics;
  });
  return out;
}
import { cueOffset, dimension, dot, type FeatureSpace, type SparseVector } from './features.js';

export interface TrainingRow {
  vector: SparseVector;
  /** 1 scam, 0 legit. */
  y: 0 | 1;
  weight: number;
}

export interface LogisticOptions {
  /** L2 penalty on word features (their values are averaged, so the scale differs from the cues'). */
  l2Words: number;
  /** L2 penalty on topic cues: strong, so a topic alone cannot carry a verdict. */
  l2Topics: number;
  /** L2 penalty on evidence cues: weak, so evidence is what the model leans on. */
  l2Cues: number;
  iterations: number;
  learningRate: number;
}

export interface Logistic {
  weights: Float64Array;
  bias: number;
}

export const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** Weighted L2-regularised logistic regression by full-batch AdaGrad. */
export function trainLogistic(rows: readonly TrainingRow[], space: FeatureSpace, o: LogisticOptions): Logistic {
  const dim = dimension(space);
  const l2 = penalties(space, o);
  const w = new Float64Array(dim);
  const g2 = new Float64Array(dim).fill(1e-8);
  let bias = 0;
  let b2 = 1e-8;
  const total = rows.reduce((s, r) => s + r.weight, 0);
  const grad = new Float64Array(dim);
  for (let it = 0; it < o.iterations; it++) {
    grad.fill(0);
    let gb = 0;
    for (const r of rows) {
      const err = (sigmoid(dot(w, r.vector) + bias) - r.y) * (r.weight / total);
      gb += err;
      for (let i = 0; i < r.vector.index.length; i++) grad[r.vector.index[i]!]! += err * r.vector.value[i]!;
    }
    for (let j = 0; j < dim; j++) {
      const g = grad[j]! + l2[j]! * w[j]!;
      if (g === 0) continue;
      g2[j]! += g * g;
      w[j]! -= (o.learningRate * g) / Math.sqrt(g2[j]!);
    }
    b2 += gb * gb;
    bias -= (o.learningRate * gb) / Math.sqrt(b2);
  }
  return { weights: w, bias };
}

export interface Platt {
  a: number;
  b: number;
}

/** Platt scaling: p = sigmoid(a·margin + b), fitted by Newton-free gradient descent on log loss. */
export function fitPlatt(margins: readonly number[], ys: readonly (0 | 1)[]): Platt {
  // Platt's smoothed targets keep a perfectly separated calibration set from driving a to infinity.
  const pos = ys.filter((y) => y === 1).length;
  const neg = ys.length - pos;
  const hi = (pos + 1) / (pos + 2);
  const lo = 1 / (neg + 2);
  let a = 1;
  let b = 0;
  for (let it = 0; it < 5000; it++) {
    let ga = 0;
    let gb = 0;
    for (let i = 0; i < margins.length; i++) {
      const t = ys[i] === 1 ? hi : lo;
      const d = sigmoid(a * margins[i]! + b) - t;
      ga += d * margins[i]!;
      gb += d;
    }
    a -= (0.5 * ga) / margins.length;
    b -= (0.5 * gb) / margins.length;
  }
  return { a, b };
}

export interface CategoryRow {
  vector: SparseVector;
  category: VerdictCategory;
}

export type Centroid = Record<number, number>;

/** Nearest-centroid category model: the mean normalised vector per category, cut to its strongest entries. */
export function trainCentroids(rows: readonly CategoryRow[], keep: number): Map<VerdictCategory, Centroid> {
  const sums = new Map<VerdictCategory, Map<number, number>>();
  const counts = new Map<VerdictCategory, number>();
  for (const r of rows) {
    const norm = Math.sqrt(r.vector.value.reduce((s, v) => s + v * v, 0)) || 1;
    const sum = sums.get(r.category) ?? new Map<number, number>();
    r.vector.index.forEach((ix, i) => sum.set(ix, (sum.get(ix) ?? 0) + r.vector.value[i]! / norm));
    sums.set(r.category, sum);
    counts.set(r.category, (counts.get(r.category) ?? 0) + 1);
  }
  const out = new Map<VerdictCategory, Centroid>();
  for (const [cat, sum] of [...sums].sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
    const n = counts.get(cat)!;
    const top = [...sum].sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, keep);
    const norm = Math.sqrt(top.reduce((s, [, v]) => s + (v / n) ** 2, 0)) || 1;
    out.set(cat, Object.fromEntries(top.map(([ix, v]) => [ix, round(v / n / norm)])));
  }
  return out;
}

export function round(x: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** Area under the ROC curve (ties count half). */
export function auc(scores: readonly number[], ys: readonly (0 | 1)[]): number {
  const order = scores.map((s, i) => [s, ys[i]!] as const).sort((a, b) => a[0] - b[0]);
  let rankSum = 0;
  let pos = 0;
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j < order.length && order[j]![0] === order[i]![0]) j++;
    const avgRank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++)
      if (order[k]![1] === 1) {
        rankSum += avgRank;
        pos++;
      }
    i = j;
  }
  const neg = order.length - pos;
  if (pos === 0 || neg === 0) return NaN;
  return (rankSum - (pos * (pos + 1)) / 2) / (pos * neg);
}

export const CUE_COUNT = CUES.length;
