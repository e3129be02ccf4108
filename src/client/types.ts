/*
 * The shapes the client kit reads and writes: the spec's objects, re-exported from the domain so the
 * client and the service cannot drift apart, plus the request and response bodies of the HTTP API.
 */
import type { PersonaInfo, SessionEvent } from '../domain/events.js';
import type { Intel } from '../domain/intel.js';
import type { SessionRecord } from '../domain/session.js';
import type { Verdict } from '../domain/verdict.js';

export type { Intel, PersonaInfo, SessionEvent, SessionRecord, Verdict };
export type EventOf<T extends SessionEvent['type']> = Extract<SessionEvent, { type: T }>;

export interface Capabilities {
  scan: boolean;
  live_filter: boolean;
  honeypot: boolean;
  llm: string;
  analysis_llm: string;
  stt: string;
  tts: string;
  personas: number;
  prices: {
    credit_usd: number;
    filter_per_minute: number;
    honeypot_per_minute: number;
    scan: number;
    scan_audio_minute: number;
    managed_telephony_per_minute: number;
  };
}

/** POST /voice/scan: a transcript, or audio (bytes are sent base64-encoded). */
export type ScanRequest = {
  language?: string;
  from?: string;
  to?: string;
  report?: boolean;
} & ({ transcript: string } | { audio: Uint8Array; encoding?: 'wav' | 'pcm16' | 'mulaw'; sample_rate?: number });

export interface ScanResponse {
  session_id: string;
  verdict: Verdict;
  intel: Intel;
  transcript: string;
  reported: boolean;
  reported_numbers: number;
}

export interface SessionDetail {
  session: SessionRecord;
  verdict: Verdict;
  intel: Intel;
}

export interface NumberStatus {
  number: string;
  reported: boolean;
  complaints: number;
  categories: string[];
  first_seen?: string;
  last_seen?: string;
}

export interface Persona {
  id: string;
  name: string;
  voice: string;
  language: string;
  description: string;
}

/** The start message's fields (spec, Start message) and the session options (URL or `params`). */
export interface LiveOptions {
  call_id?: string;
  from?: string;
  to?: string;
  sample_rate?: number;
  encoding?: 'pcm16' | 'mulaw';
  /** Sent as URL options; the service reads them like `params`. */
  webhook?: string;
  language?: string;
  report?: boolean;
  /** Honeypot only. */
  persona?: string;
  /** Filter only: `both` also transcribes the called party. */
  tracks?: 'both';
  /** Extra `params` in the start message (they win over URL options). */
  params?: Record<string, string>;
  /** Give up opening after this long (default 10 s). */
  timeoutMs?: number;
}
