import type { PersonaInfo } from '../domain/events.js';

/** A persona: what callers hear (`PersonaInfo`) plus what only the dialogue engine knows. */
export interface Persona extends PersonaInfo {
  backstory: string;
  /** How the persona talks: pace, fillers, quirks. */
  manner: string;
  /** Fake but plausible details the persona may give out (never real ones). */
  fakeDetails: Record<string, string>;
  /** Voice parameters for the TTS provider (eSpeak voice name, Polly voice id, rate). */
  tts: { espeak: string; polly: string; rate?: number; pitch?: number };
}
