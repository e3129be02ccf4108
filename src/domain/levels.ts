export const LEVELS = ['clean', 'suspicious', 'likely_scam', 'scam'] as const;
export type Level = (typeof LEVELS)[number];

/** Band edges of the spec: clean < 0.3 ≤ suspicious < 0.6 ≤ likely_scam < 0.85 ≤ scam. */
export const SUSPICIOUS_AT = 0.3;
export const LIKELY_SCAM_AT = 0.6;
export const SCAM_AT = 0.85;

export function levelOf(score: number): Level {
  if (score >= SCAM_AT) return 'scam';
  if (score >= LIKELY_SCAM_AT) return 'likely_scam';
  if (score >= SUSPICIOUS_AT) return 'suspicious';
  return 'clean';
}

/** Scores travel as probabilities; keep them finite, in [0, 1], with stable decimals on the wire. */
export function clampScore(score: number): number {
  if (!Number.isFinite(score)) return 0;
  const bounded = Math.min(1, Math.max(0, score));
  return Math.round(bounded * 1000) / 1000;
}
