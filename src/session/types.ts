import type { Observable } from 'rxjs';
import type { Protocol, SessionEvent, SessionKind } from '../domain/events.js';
import type { Frame, OutboundFrame } from '../domain/frames.js';
import type { KeyRecord } from '../store/types.js';
import type { StartInfo } from '../transport/types.js';

/** Options after merging URL options (or SIP headers) with start-message params; params win. */
export interface SessionOptions {
  webhook?: string;
  language?: string;
  report: boolean;
  tracksBoth: boolean;
  persona?: string;
}

export interface SessionSpec {
  kind: SessionKind;
  protocol: Protocol;
  key: KeyRecord;
  /** Signs webhook posts (HMAC-SHA256 with the API key); never logged. */
  rawKey: string;
  start: StartInfo;
  options: SessionOptions;
}

/** A live session as a transport sees it: frames in; events and (honeypot) audio out. */
export interface SessionHandle {
  readonly id: string;
  readonly spec: SessionSpec;
  /** Inbound frames from the transport. A `stop` frame (or `end()`) ends the session. */
  push(frame: Frame): void;
  /** Every event of the session in order, `session.started` first, completing after `session.ended`. */
  readonly events$: Observable<SessionEvent>;
  /** Honeypot output (audio already in the session's encoding and rate, clear, mark, hangup). Empty on the filter. */
  readonly outbound$: Observable<OutboundFrame>;
  /** Resolves once `session.ended` was emitted and the record was written (or journaled). */
  readonly ended: Promise<void>;
}

/** A capacity slot taken at socket upgrade (or SIP INVITE) and given back when the session or socket ends. */
export interface Reservation {
  release(): void;
}
