/**
 * Maps the evidence sum (log-odds) to a probability: p = 1 / (1 + e^-(scale·(z + bias))).
 *
 * `bias` is the prior log-odds of a scam when the caller's words hold no evidence; `scale` corrects
 * the hand-set cue weights as a whole. Both were fitted by logistic regression (Platt scaling) on the
 * tuning split only (`voice eval --split tune --calibrate`), with the held-out split never consulted;
 * bench/RESULTS.md records the fit and the reliability of the result.
 */
export const CALIBRATION = {
  bias: -2.263,
  scale: 3.495,
} as const;
