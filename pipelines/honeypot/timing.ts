/*
 * The honeypot's clocks. Spec values are the defaults; the environment may shorten them so an
 * end-to-end test over a real socket can see a prompt and a hang-up without waiting 32 seconds.
 */
import { HONEYPOT_MAX_PROMPTS, HONEYPOT_SILENCE_MS, REPLY_PAUSE_MS } from '../../src/domain/limits.js';

export interface HoneypotTiming {
  /** Caller silence before the persona prompts (spec: 8 s). */
  silenceMs: number;
  /** Unanswered prompts before the persona hangs up (spec: 3). */
  maxPrompts: number;
  /** Quiet after a caller line (without `end_of_turn`) before the persona answers. */
  replyPauseMs: number;
}

export const SPEC_TIMING: HoneypotTiming = {
  silenceMs: HONEYPOT_SILENCE_MS,
  maxPrompts: HONEYPOT_MAX_PROMPTS,
  replyPauseMs: REPLY_PAUSE_MS,
};

function ms(raw: string | undefined, dflt: number): number {
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return dflt;
  return Math.max(1, Math.min(600_000, Number(raw)));
}

/** VOICE_HONEYPOT_SILENCE_MS and VOICE_HONEYPOT_REPLY_PAUSE_MS (tests and demos only). */
export function honeypotTiming(env: Record<string, string | undefined> = process.env): HoneypotTiming {
  return {
    silenceMs: ms(env.VOICE_HONEYPOT_SILENCE_MS, SPEC_TIMING.silenceMs),
    maxPrompts: SPEC_TIMING.maxPrompts,
    replyPauseMs: ms(env.VOICE_HONEYPOT_REPLY_PAUSE_MS, SPEC_TIMING.replyPauseMs),
  };
}
