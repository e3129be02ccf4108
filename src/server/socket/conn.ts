/*
 * One live socket's state, from upgrade to close, and the ways such a socket closes without a session.
 * Shared by the upgrade, the start and the frame handlers of the socket entry points.
 */
import type { WebSocket } from 'uWebSockets.js';
import type { Subject, Subscription } from 'rxjs';
import type { SessionKind } from '../../domain/events.js';
import type { Frame } from '../../domain/frames.js';
import type { SocketSink } from '../../events/socket-sink.js';
import type { SessionActor } from '../../session/actor.js';
import type { Ticket } from '../../session/admission.js';
import type { Serializer } from '../../transport/types.js';

/**
 * Close codes of a socket that ends without events (spec: "socket closed with no events").
 * 1008 (policy violation) with a short reason: no start in time, a binary frame before the start,
 * an invalid or unsupported start, or a first minute that cannot be charged.
 * 1011 when the node itself failed to open the session. 1000 after `session.ended`. 1001 when the node
 * shuts down before the start message arrived.
 */
export const CLOSE_REFUSED = 1008;
export const CLOSE_INTERNAL = 1011;
export const CLOSE_ENDED = 1000;
export const CLOSE_GOING_AWAY = 1001;
/** RFC 6455 §7.4.1: a message too big to process. */
export const CLOSE_TOO_BIG = 1009;

/** 200 ms of 48 kHz pcm16 is 19.2 kB; vendor JSON media frames carry base64. Starts stay far below. */
export const MAX_PAYLOAD = 256 * 1024;
/**
 * What uWS itself accepts. Above its own limit uWS drops the TCP connection without a close frame (the
 * client sees 1006) and gives the node no chance to end the session properly; between the two limits
 * the node reads the frame, ends the session as a stop would (`session.ended`), and closes with 1009.
 * Each socket can make uWS buffer up to this much, hence not more.
 */
export const UWS_MAX_PAYLOAD = 1024 * 1024;
/** Frames that may arrive while the first minute is charged; audio beyond this is shed. */
export const EARLY_LIMIT = 2000;
/**
 * Keyless vendor upgrades (signature verified, key still to come in the start event) waiting at once, and
 * how long each may wait. A vendor sends its start within a second of connecting; the small cap keeps
 * anyone who got hold of one signed upgrade from holding the node's session slots with replays of it.
 */
export const KEYLESS_PENDING_MAX = 16;
export const KEYLESS_START_TIMEOUT_MS = 5000;

/** Keyless upgrades waiting for their start, node-wide. */
export interface KeylessPool {
  pending: number;
  max: number;
}

/** The first four fields are the ones every frame reads: created first, they share the object's first cache line. */
export interface Conn {
  phase: 'waiting' | 'starting' | 'live' | 'done';
  serializer: Serializer | null;
  session: SessionActor | null;
  early: Frame[];
  kind: SessionKind;
  /** The capacity slot and, once authenticated (at upgrade, or by a vendor start's key), the key. */
  ticket: Ticket;
  started$: Subject<void>;
  timer: Subscription | null;
  sink: SocketSink | null;
  closed: boolean;
  ws: WebSocket<Conn> | null;
  /** Set while this keyless upgrade counts against the keyless cap. */
  keyless: KeylessPool | null;
  /** The close a protocol violation asked for, sent after `session.ended` instead of 1000. */
  closeWith: { code: number; reason: string } | null;
}

/** The keyless upgrade's start has been dealt with (or never will be): it no longer counts against the cap. */
export function leaveKeyless(conn: Conn): void {
  if (conn.keyless) conn.keyless.pending--;
  conn.keyless = null;
}

/** Closes a socket that never became a session: no events, nothing charged. */
export function refuse(conn: Conn, reason: string, code = CLOSE_REFUSED): void {
  leaveKeyless(conn);
  conn.phase = 'done';
  conn.timer?.unsubscribe();
  if (!conn.closed) {
    conn.closed = true;
    conn.ws?.end(code, reason);
  }
}
