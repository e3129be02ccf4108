import type { Intel } from './intel.js';
import type { Verdict } from './verdict.js';

export type SessionKind = 'filter' | 'honeypot';
export type Protocol = 'raw' | 'vendor_a' | 'vendor_b' | 'sip' | 'http';

/** Fields every event carries (spec, Events → Common fields). */
export interface EventCommon {
  session_id: string;
  kind: SessionKind;
  call_id?: string;
  from?: string;
  to?: string;
  at: string;
}

export interface PersonaInfo {
  id: string;
  name: string;
  voice: string;
  language: string;
  description: string;
}

export type SessionEvent =
  | (EventCommon & { type: 'session.started'; persona?: PersonaInfo })
  | (EventCommon & { type: 'transcript.line'; speaker: string; text: string })
  | (EventCommon & { type: 'verdict'; verdict: Verdict })
  | (EventCommon & { type: 'session.error'; error: string; text: string })
  | (EventCommon & {
      type: 'session.ended';
      verdict: Verdict;
      intel: Intel;
      transcript: string;
      duration_seconds: number;
      reported: boolean;
      reported_numbers: number;
    });

export type EventType = SessionEvent['type'];

/** Events that go to the webhook: all but `transcript.line`. */
export function goesToWebhook(type: EventType): boolean {
  return type !== 'transcript.line';
}
