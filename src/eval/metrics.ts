/** Figures of merit for scam detection, all pure functions of (label, score) pairs. */
export interface Scored {
  scam: boolean;
  score: number;
}

/** ROC AUC by the rank-sum (Mann–Whitney) statistic; ties count half. */
export function rocAuc(items: readonly Scored[]): number {
  const sorted = [...items].sort((a, b) => a.score - b.score);
  let pos = 0;
  let neg = 0;
  let rankSumPos = 0;
  let i = 0;
  while (i < sorted.length) {
    let j = i;
    while (j < sorted.length && sorted[j]!.score === sorted[i]!.score) j++;
    const avgRank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) {
      if (sorted[k]!.scam) {
        pos++;
        rankSumPos += avgRank;
      } else neg++;
    }
    i = j;
  }
  if (pos === 0 || neg === 0) return NaN;
  return (rankSumPos - (pos * (pos + 1)) / 2) / (pos * neg);
}

export interface AtThreshold {
  threshold: number;
  precision: number;
  recall: number;
  /** Share of legitimate calls at or above the threshold. */
  fpr: number;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

export function atThreshold(items: readonly Scored[], threshold: number): AtThreshold {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (const it of items) {
    const flagged = it.score >= threshold;
    if (it.scam && flagged) tp++;
    else if (it.scam) fn++;
    else if (flagged) fp++;
    else tn++;
  }
  return {
    threshold,
    precision: tp + fp === 0 ? NaN : tp / (tp + fp),
    recall: tp + fn === 0 ? NaN : tp / (tp + fn),
    fpr: fp + tn === 0 ? NaN : fp / (fp + tn),
    tp,
    fp,
    fn,
    tn,
  };
}

/** Reliability: mean predicted score vs observed scam share per score band. */
export function reliability(items: readonly Scored[], edges = [0, 0.1, 0.3, 0.6, 0.85, 1.0001]) {
  const out: Array<{ band: string; n: number; meanScore: number; scamShare: number }> = [];
  for (let b = 0; b + 1 < edges.length; b++) {
    const lo = edges[b]!;
    const hi = edges[b + 1]!;
    const inBand = items.filter((x) => x.score >= lo && x.score < hi);
    const n = inBand.length;
    out.push({
      band: `${lo.toFixed(2)}–${Math.min(hi, 1).toFixed(2)}`,
      n,
      meanScore: n ? inBand.reduce((s, x) => s + x.score, 0) / n : NaN,
      scamShare: n ? inBand.filter((x) => x.scam).length / n : NaN,
    });
  }
  return out;
}
