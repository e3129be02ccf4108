/** One credit in US dollars (spec, Prices). */
export const CREDIT_USD = 0.0039;

/** Credits, exactly as the spec's price table. */
export const PRICES = {
  filter_per_minute: 3,
  honeypot_per_minute: 8,
  scan: 2,
  scan_audio_minute: 1,
  managed_telephony_per_minute: 4,
} as const;

/**
 * Per-started-minute price of a live session. With `tracks=both` the transcription cost doubles;
 * the filter's whole per-minute price is its transcription cost, so it doubles.
 */
export function liveMinutePrice(kind: 'filter' | 'honeypot', tracksBoth: boolean): number {
  const base = kind === 'filter' ? PRICES.filter_per_minute : PRICES.honeypot_per_minute;
  return kind === 'filter' && tracksBoth ? base * 2 : base;
}

/** Scan price: 2 per request plus 1 per started minute of audio. */
export function scanPrice(audioSeconds: number | undefined): number {
  if (audioSeconds === undefined) return PRICES.scan;
  return PRICES.scan + Math.ceil(Math.max(0, audioSeconds) / 60) * PRICES.scan_audio_minute;
}
