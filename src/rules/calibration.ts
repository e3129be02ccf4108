/**
 * Maps the evidence sum (log-odds) to a probability: p = 1 / (1 + e^-(scale·(z + bias))).
 *
 * `bias` is the prior log-odds of a scam when the caller's words hold no evidence; `scale` corrects
 * the hand-set cue weights as a whole. Both were fitted on the tuning split only, every source weighing
 * the same within its label and the score taken through the ladder as the product makes it
 * (`voice eval --split tune --calibrate`, src/eval/calibrate.ts). The leave-one-source-out folds refit
 * it without the source they score; bench/RESULTS.md records how far their fits move.
 */
export const CALIBRATION = {
  bias: -1.731,
  scale: 4.015,
} as const;
