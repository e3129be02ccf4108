import type { SchedulerLike } from 'rxjs';
import type { EventCommon, PersonaInfo, SessionEvent, SessionKind } from '../domain/events.js';
import type { Intel } from '../domain/intel.js';
import { isE164 } from '../domain/phone.js';
import type { Verdict } from '../domain/verdict.js';

export interface EnvelopeSource {
  sessionId: string;
  kind: SessionKind;
  callId?: string;
  from?: string;
  to?: string;
}

/**
 * Builds the spec's event objects for one session. Unknown `call_id`, `from` and `to` are omitted
 * rather than sent as null, so a receiver can test presence; `at` is RFC 3339 from the session's
 * scheduler clock (wall time in production, virtual time in tests).
 */
export class EventFactory {
  private readonly base: Omit<EventCommon, 'at'>;

  constructor(
    src: EnvelopeSource,
    private readonly scheduler: SchedulerLike,
  ) {
    const base: Omit<EventCommon, 'at'> = { session_id: src.sessionId, kind: src.kind };
    if (src.callId) base.call_id = src.callId;
    // Events carry numbers only (spec: "E.164 numbers when known"); the record keeps what was given.
    if (isE164(src.from)) base.from = src.from;
    if (isE164(src.to)) base.to = src.to;
    this.base = base;
  }

  private common(): EventCommon {
    return { ...this.base, at: new Date(this.scheduler.now()).toISOString() };
  }

  started(persona?: PersonaInfo): SessionEvent {
    return persona
      ? { type: 'session.started', ...this.common(), persona }
      : { type: 'session.started', ...this.common() };
  }

  line(speaker: string, text: string): SessionEvent {
    return { type: 'transcript.line', ...this.common(), speaker, text };
  }

  verdict(verdict: Verdict): SessionEvent {
    return { type: 'verdict', ...this.common(), verdict };
  }

  error(error: string, text: string): SessionEvent {
    return { type: 'session.error', ...this.common(), error, text };
  }

  ended(fields: {
    verdict: Verdict;
    intel: Intel;
    transcript: string;
    durationSeconds: number;
    reported: boolean;
    reportedNumbers: number;
  }): SessionEvent {
    return {
      type: 'session.ended',
      ...this.common(),
      verdict: fields.verdict,
      intel: fields.intel,
      transcript: fields.transcript,
      duration_seconds: fields.durationSeconds,
      reported: fields.reported,
      reported_numbers: fields.reportedNumbers,
    };
  }
}
