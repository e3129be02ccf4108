/*
 * Fitting the rules' calibration (evidence log-odds → score) the way the score is made: through the
 * ladder that caps and floors it. A call the ladder caps (a lone phrase, a story, an assured bank alert)
 * is not evidence about the curve, and fitting the bare logistic to it anyway flattens the curve for the
 * calls it does decide: the source-balanced bare fit put robocalls with a claim, a problem and a key to
 * press (evidence 2.6–3.2, no honest call there) at `likely_scam`.
 */
import type { Calibration } from '../rules/assess.js';
import { evidenceLogit } from '../rules/assess.js';
import { findEvidence } from '../rules/evidence.js';
import { ladder } from '../rules/ladder.js';
import { callShape } from '../rules/shape.js';
import { callerText, parseTranscript } from '../rules/transcript.js';
import type { EvalRecord } from './datasets.js';

/** One labelled call as the fit sees it: its evidence sum and the band the ladder lets its score move in. */
export interface CalibrationPoint {
  z: number;
  /** `ladder(hits, 0)` and `ladder(hits, 1)`: the ladder is min/max with constants, so it is a clamp. */
  lo: number;
  hi: number;
  scam: boolean;
  weight: number;
}

/**
 * Points for the fit, weighted so that every source counts the same within its label (a source of 50
 * written calls as much as 700 robocalls), and scams as much as honest calls in all. A fit that follows
 * one big source's style does not travel: the public legitimate sets hold no business-style calls at all
 * (the data README's "shortcut"), so on them alone any evidence looks conclusive, while our hard
 * negatives and the bank's contact centre stand for the business calls a real line receives.
 */
export function calibrationPoints(tune: readonly EvalRecord[]): CalibrationPoint[] {
  const count = new Map<string, number>();
  for (const r of tune) count.set(`${r.label}|${r.source}`, (count.get(`${r.label}|${r.source}`) ?? 0) + 1);
  const sourcesOf = (label: string) => [...count.keys()].filter((k) => k.startsWith(`${label}|`)).length;
  const perSource = { scam: 1 / Math.max(1, sourcesOf('scam')), legit: 1 / Math.max(1, sourcesOf('legit')) };
  return tune.map((r) => {
    const utterances = parseTranscript(r.transcript);
    const hits = findEvidence(callerText(utterances));
    const shape = callShape(utterances);
    return {
      z: evidenceLogit(hits),
      lo: ladder(hits, 0, shape),
      hi: ladder(hits, 1, shape),
      scam: r.label === 'scam',
      weight: perSource[r.label] / count.get(`${r.label}|${r.source}`)!,
    };
  });
}

/** The search box: wide enough that no fit of record has stopped on its edge (the fit says if one does). */
const SCALE = { min: 1, max: 8 };
const BIAS = { min: -3.5, max: -0.5 };
const EPS = 1e-9;

function logLoss(points: readonly CalibrationPoint[], scale: number, bias: number): number {
  let sum = 0;
  for (const p of points) {
    const raw = 1 / (1 + Math.exp(-scale * (p.z + bias)));
    const s = Math.min(Math.max(Math.min(Math.max(raw, p.lo), p.hi), EPS), 1 - EPS);
    sum -= p.weight * Math.log(p.scam ? s : 1 - s);
  }
  return sum;
}

function search(
  points: readonly CalibrationPoint[],
  scales: readonly number[],
  biases: readonly number[],
): Calibration & { loss: number } {
  let best = { scale: scales[0]!, bias: biases[0]!, loss: Infinity };
  for (const scale of scales)
    for (const bias of biases) {
      const loss = logLoss(points, scale, bias);
      if (loss < best.loss) best = { scale, bias, loss };
    }
  return best;
}

const steps = (from: number, to: number, step: number) =>
  Array.from({ length: Math.round((to - from) / step) + 1 }, (_, i) => from + i * step);

/**
 * Minimises the weighted log loss of the laddered score over (scale, bias). The clamp makes the loss
 * flat in places and not convex, so a grid, then a finer grid around its best, instead of Newton.
 * `edge` says the best lies on the search box's border, where a wider box might do better.
 */
export function fitCalibration(all: readonly CalibrationPoint[]): Calibration & { edge: boolean } {
  // A call the ladder pins to one value says nothing about the curve.
  const points = all.filter((p) => p.hi - p.lo > EPS);
  const coarse = search(points, steps(SCALE.min, SCALE.max, 0.1), steps(BIAS.min, BIAS.max, 0.02));
  const fine = search(
    points,
    steps(Math.max(SCALE.min, coarse.scale - 0.1), Math.min(SCALE.max, coarse.scale + 0.1), 0.005),
    steps(Math.max(BIAS.min, coarse.bias - 0.02), Math.min(BIAS.max, coarse.bias + 0.02), 0.001),
  );
  const edge =
    fine.scale <= SCALE.min + 1e-9 ||
    fine.scale >= SCALE.max - 1e-9 ||
    fine.bias <= BIAS.min + 1e-9 ||
    fine.bias >= BIAS.max - 1e-9;
  return { scale: Number(fine.scale.toFixed(3)), bias: Number(fine.bias.toFixed(3)), edge };
}
