/*
 * The product spec's numbers, in one place to check against it: each value quotes the line of the spec it
 * comes from (the session table, "When a verdict event is sent", Webhooks and the Limits table). Operators,
 * pipelines and configuration read them from here, so a change of the spec is one edit reviewed beside
 * its quote. Two honeypot values the spec leaves to the service sit beside its rules and say so. The spec's
 * score numbers are their own concept and live with it: the level bands in `levels.ts`, the filing
 * thresholds in `filing.ts`, the credit prices in `prices.ts`.
 */
// ---- Session start and length --------------------------------------------------------------------

/** "Start message timeout: 15 seconds after connection on the filter stream". */
export const FILTER_START_TIMEOUT_MS = 15_000;
/** "…10 seconds on the honeypot stream". */
export const HONEYPOT_START_TIMEOUT_MS = 10_000;
/** "Filter session length: 60 minutes". */
export const FILTER_TIME_LIMIT_MS = 60 * 60_000;
/** "Honeypot session length: 15 minutes". */
export const HONEYPOT_TIME_LIMIT_MS = 15 * 60_000;
/** "Charged at the start of the call and once per started minute". */
export const BILLING_MINUTE_MS = 60_000;

// ---- Scoring -------------------------------------------------------------------------------------

/** "Model scoring: every 30 seconds, when at least 120 new characters arrived". */
export const MODEL_EVERY_MS = 30_000;
/** The 120 characters of the same line. */
export const MODEL_MIN_NEW_CHARS = 120;
/** "A rules-only score below 0.5 is never sent". */
export const RULES_ONLY_MIN = 0.5;
/** "The score moves by 0.15 or more" sends a new verdict. */
export const SCORE_STEP = 0.15;
/** Verdict `summary`: "At most two sentences". */
export const SUMMARY_MAX_SENTENCES = 2;
/** "Final analysis time: up to 20 seconds after the stop"; scan and the evaluation harness use the same bound. */
export const FINAL_ANALYSIS_MS = 20_000;

// ---- Honeypot --------------------------------------------------------------------------------------

/** "Honeypot silence: prompt after 8 seconds". */
export const HONEYPOT_SILENCE_MS = 8000;
/** "…hang up after three unanswered prompts". */
export const HONEYPOT_MAX_PROMPTS = 3;
/**
 * Not in the spec, which leaves turn-taking to the service: the caller's quiet after a final line (without
 * `end_of_turn`) before the persona answers. Short enough to sound attentive, long enough not to cut in.
 */
export const REPLY_PAUSE_MS = 1200;
/**
 * Not in the spec either: the caller's level (RMS of 16-bit PCM) that counts as voice, for barge-in and for
 * the silence clock. Above line hiss and comfort noise, below quiet speech on a phone line.
 */
export const VOICE_RMS_THRESHOLD = 700;

// ---- Audio -----------------------------------------------------------------------------------------

/** "Sample rate: 8000 to 48000 Hz" (start message `sample_rate`). */
export const MIN_SAMPLE_RATE = 8000;
export const MAX_SAMPLE_RATE = 48000;
/** "Audio frame size: 20 ms to 200 ms"; the honeypot sends its own audio in the smallest of these. */
export const MIN_FRAME_MS = 20;
export const MAX_FRAME_MS = 200;

// ---- Options -----------------------------------------------------------------------------------------

/** Options table: `report` defaults to `false` on the filter and `true` on the honeypot (one key per session kind). */
export const REPORT_DEFAULT: Readonly<{ filter: boolean; honeypot: boolean }> = Object.freeze({
  filter: false,
  honeypot: true,
});

// ---- Caps ----------------------------------------------------------------------------------------

/** "Live sessions per node: 200; above it the socket answers 503" (the default of VOICE_MAX_SESSIONS). */
export const MAX_LIVE_SESSIONS = 200;
/** "Webhook answer time: 5 seconds, no retry". */
export const WEBHOOK_TIMEOUT_MS = 5000;
/** "Scan body: 25 MB", read as SI megabytes (25 000 000 bytes). */
export const SCAN_BODY_LIMIT = 25_000_000;
/** "Scan request time-out: 90 seconds". */
export const SCAN_TIMEOUT_MS = 90_000;
/** "`limit` of `GET /sessions`: 1 to 200, otherwise 50". */
export const SESSIONS_LIMIT_MAX = 200;
export const SESSIONS_LIMIT_DEFAULT = 50;
