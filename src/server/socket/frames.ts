/*
 * A live socket's frames: the start deadline, the start message found by protocol detection, then
 * frames into the session (kept in order while it opens), the payload cap, and the socket's close.
 */
import type { WebSocket } from 'uWebSockets.js';
import type { SchedulerLike } from 'rxjs';
import { startDeadline } from '../../../pipelines/start-deadline.js';
import { frameProbe } from '../../observability/frame-probe.js';
import { frameTally } from '../../observability/metrics.js';
import { detectSerializer } from '../../transport/detect.js';
import {
  CLOSE_TOO_BIG,
  EARLY_LIMIT,
  KEYLESS_START_TIMEOUT_MS,
  MAX_PAYLOAD,
  leaveKeyless,
  refuse,
  type Conn,
} from './conn.js';
import { onStart, type StartDeps } from './start.js';

export function onOpen(ws: WebSocket<Conn>, startTimeoutMs: number, scheduler: SchedulerLike): void {
  const conn = ws.getUserData();
  conn.ws = ws;
  const ms = conn.keyless ? Math.min(startTimeoutMs, KEYLESS_START_TIMEOUT_MS) : startTimeoutMs;
  conn.timer = conn.started$.pipe(startDeadline(ms, scheduler)).subscribe({
    error: () => refuse(conn, 'start timeout'),
  });
}

export function onMessage(ws: WebSocket<Conn>, message: ArrayBuffer, isBinary: boolean, deps: StartDeps): void {
  if (frameProbe.enabled) frameProbe.arrived();
  const conn = ws.getUserData();
  if (conn.phase === 'done' || conn.closeWith) return;
  if (message.byteLength > MAX_PAYLOAD) return tooBig(conn);
  if (conn.phase === 'waiting') {
    if (isBinary) return refuse(conn, 'binary frame before start');
    const text = Buffer.from(message).toString('utf8');
    conn.serializer ??= detectSerializer(text, conn.kind);
    if (!conn.serializer) return; // not a start of any protocol: unknown frames are ignored until the timeout
    const d = conn.serializer.decodeText(text);
    if (d.type === 'reject') return refuse(conn, `invalid start: ${d.reason}`);
    if (d.type === 'start') onStart(conn, conn.serializer, d.info, deps);
    return;
  }
  const serializer = conn.serializer!;
  const d = isBinary
    ? serializer.decodeBinary(new Uint8Array(message))
    : serializer.decodeText(Buffer.from(message).toString('utf8'));
  if (d.type !== 'frame') return;
  // Audio by name: a keyed count would see four kinds of key and go megamorphic on the hottest path.
  if (d.frame.kind === 'audio') {
    frameTally.audio++;
    frameTally.audioBytes += d.frame.data.byteLength;
  } else frameTally[d.frame.kind]++;
  if (conn.phase === 'live') conn.session!.push(d.frame);
  else if (conn.early.length < EARLY_LIMIT || d.frame.kind !== 'audio') conn.early.push(d.frame);
}

/**
 * A frame over the cap. Before the client has seen `session.started` (no session yet, or one still being
 * opened) the socket closes with no events and nothing is charged; a live session ends as on a stop
 * (`session.ended`, stored) and the socket then closes with 1009 instead of 1000.
 */
function tooBig(conn: Conn): void {
  const reason = `message over ${MAX_PAYLOAD} bytes`;
  if (conn.phase === 'waiting') return refuse(conn, reason, CLOSE_TOO_BIG);
  conn.closeWith = { code: CLOSE_TOO_BIG, reason };
  if (conn.phase === 'live') return conn.session!.end('stop');
  // Starting: the phase stays, so the slot is left to the start in progress, which now opens nothing.
  conn.timer?.unsubscribe();
  conn.closed = true;
  conn.ws?.end(CLOSE_TOO_BIG, reason);
}

export function onClose(ws: WebSocket<Conn>): void {
  const conn = ws.getUserData();
  leaveKeyless(conn);
  conn.closed = true;
  conn.ws = null;
  conn.timer?.unsubscribe();
  conn.sink?.detach();
  if (conn.session) {
    conn.session.end('closed');
  } else if (conn.phase !== 'starting') {
    conn.ticket.release();
  }
}
