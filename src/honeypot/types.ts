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
  /** First words when the call is answered. */
  greeting?: string;
  /** The persona's own ways of stalling (kettle, glasses, the cat): mixed into the scripted engine's lines. */
  stalls?: string[];
  /** Someone the persona mentions (grandson, neighbour) who "handles the computer". */
  helper?: string;
}
