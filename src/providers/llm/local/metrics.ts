/** Figures of a scorer on labelled data: ranking (AUC), the spec's bands, and calibration. */
import { LIKELY_SCAM_AT, SCAM_AT, SUSPICIOUS_AT } from '../../../domain/levels.js';
import { auc, round } from './train.js';

export interface BandFigures {
  threshold: number;
  precision: number;
  recall: number;
  false_positive_rate: number;
}

export interface Figures {
  n: number;
  positives: number;
  auc: number;
  brier: number;
  /** Expected calibration error over ten equal-width bins. */
  ece: number;
  bands: BandFigures[];
}

export function evaluate(scores: readonly number[], ys: readonly (0 | 1)[]): Figures {
  const n = scores.length;
  const positives = ys.filter((y) => y === 1).length;
  const brier = scores.reduce((s, p, i) => s + (p - ys[i]!) ** 2, 0) / (n || 1);
  const bins = Array.from({ length: 10 }, () => ({ n: 0, p: 0, y: 0 }));
  scores.forEach((p, i) => {
    const b = bins[Math.min(9, Math.floor(p * 10))]!;
    b.n++;
    b.p += p;
    b.y += ys[i]!;
  });
  const ece = bins.reduce((s, b) => s + (b.n ? (b.n / n) * Math.abs(b.p / b.n - b.y / b.n) : 0), 0);
  const bands = [SUSPICIOUS_AT, 0.5, LIKELY_SCAM_AT, SCAM_AT].map((threshold) => {
    let tp = 0;
    let fp = 0;
    scores.forEach((s, i) => {
      if (s < threshold) return;
      if (ys[i] === 1) tp++;
      else fp++;
    });
    return {
      threshold,
      precision: round(tp + fp ? tp / (tp + fp) : 1, 4),
      recall: round(positives ? tp / positives : 0, 4),
      false_positive_rate: round(n - positives ? fp / (n - positives) : 0, 4),
    };
  });
  return { n, positives, auc: round(auc(scores, ys), 4), brier: round(brier, 4), ece: round(ece, 4), bands };
}

/** A markdown table of two scorers side by side. */
export function formatFigures(model: Figures, rules: Figures): string {
  const lines = [
    `| figure | embedded model | rules only |`,
    `|---|---|---|`,
    `| examples (scam) | ${model.n} (${model.positives}) | ${rules.n} (${rules.positives}) |`,
    `| AUC | ${model.auc} | ${rules.auc} |`,
    `| Brier score | ${model.brier} | ${rules.brier} |`,
    `| calibration error (ECE, 10 bins) | ${model.ece} | ${rules.ece} |`,
  ];
  model.bands.forEach((b, i) => {
    const r = rules.bands[i]!;
    lines.push(
      `| score ≥ ${b.threshold}: precision / recall / false-positive rate | ${b.precision} / ${b.recall} / ${b.false_positive_rate} | ${r.precision} / ${r.recall} / ${r.false_positive_rate} |`,
    );
  });
  return lines.join('\n');
}
