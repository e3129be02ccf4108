/*
 * The knobs operators turn, gathered in one place: how audio is cut into utterances (VAD sensitivity,
 * hang-over, onset, minimum speech, maximum length), which persona answers the honeypot when the call
 * does not ask for one, and, read-only, the model cadence and rule calibration (fixed by the spec and by
 * `voice eval --calibrate`). Read from VOICE_* variables like the rest of the configuration; the console
 * shows the values in force (GET /console/tuning). docs/tuning.md says when to turn each.
 */
import type { VadMode } from './audio/vad.js';
import { MODEL_EVERY_MS, MODEL_MIN_NEW_CHARS } from './domain/limits.js';
import { CALIBRATION } from './rules/calibration.js';

export interface Tuning {
  /** Voice activity detection and utterance segmentation (recognisers that take utterances). */
  segmenter: {
    mode: VadMode;
    hangoverMs: number;
    onsetMs: number;
    minSpeechMs: number;
    maxUtteranceMs: number;
  };
  /** Persona id the honeypot uses when a call names none; undefined: a random persona per call. */
  persona?: string;
  /**
   * The honeypot's dialogue engine: `auto` (generative when a chat model is configured, else scripted),
   * `scripted` (the embedded engine, even with a chat model), or `lenny` (the fixed-loop baseline).
   */
  honeypotEngine?: HoneypotEngine;
}

export const HONEYPOT_ENGINES = ['auto', 'scripted', 'lenny'] as const;
export type HoneypotEngine = (typeof HONEYPOT_ENGINES)[number];

/** Values in force when no variable is set: the segmenter's own defaults. */
export const DEFAULT_TUNING: Tuning = {
  segmenter: { mode: 2, hangoverMs: 600, onsetMs: 60, minSpeechMs: 200, maxUtteranceMs: 15_000 },
};

export class TuningError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'TuningError';
  }
}

type Env = Record<string, string | undefined>;

function whole(env: Env, name: string, dflt: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return dflt;
  if (!/^\d+$/.test(raw)) throw new TuningError(name, `expected a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new TuningError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** Reads the tuning variables; a bad value names its variable. */
export function loadTuning(env: Env = process.env): Tuning {
  const d = DEFAULT_TUNING.segmenter;
  const t: Tuning = {
    segmenter: {
      mode: whole(env, 'VOICE_VAD_MODE', d.mode, 0, 3) as VadMode,
      hangoverMs: whole(env, 'VOICE_VAD_HANGOVER_MS', d.hangoverMs, 100, 5000),
      onsetMs: whole(env, 'VOICE_VAD_ONSET_MS', d.onsetMs, 20, 1000),
      minSpeechMs: whole(env, 'VOICE_UTTERANCE_MIN_SPEECH_MS', d.minSpeechMs, 0, 5000),
      maxUtteranceMs: whole(env, 'VOICE_UTTERANCE_MAX_MS', d.maxUtteranceMs, 1000, 60_000),
    },
  };
  const persona = env.VOICE_HONEYPOT_PERSONA?.trim();
  if (persona) t.persona = persona;
  const engine = env.VOICE_HONEYPOT_ENGINE?.trim().toLowerCase();
  if (engine) {
    if (!(HONEYPOT_ENGINES as readonly string[]).includes(engine))
      throw new TuningError('VOICE_HONEYPOT_ENGINE', `expected one of ${HONEYPOT_ENGINES.join(', ')}, got "${engine}"`);
    t.honeypotEngine = engine as HoneypotEngine;
  }
  return t;
}

/** Everything the console shows: the knobs in force and the fixed values beside them. */
export function describeTuning(t: Tuning): Record<string, unknown> {
  return {
    vad_mode: t.segmenter.mode,
    vad_hangover_ms: t.segmenter.hangoverMs,
    vad_onset_ms: t.segmenter.onsetMs,
    utterance_min_speech_ms: t.segmenter.minSpeechMs,
    utterance_max_ms: t.segmenter.maxUtteranceMs,
    honeypot_persona: t.persona ?? 'random',
    honeypot_engine: t.honeypotEngine ?? 'auto',
    // Fixed by the spec: the model scores every 30 s when at least 120 new characters arrived.
    model_every_ms: MODEL_EVERY_MS,
    model_min_new_chars: MODEL_MIN_NEW_CHARS,
    // Fitted on the tuning split by `voice eval --calibrate`; changed by recalibrating, not at run time.
    rules_bias: CALIBRATION.bias,
    rules_scale: CALIBRATION.scale,
  };
}
