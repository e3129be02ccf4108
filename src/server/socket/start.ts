/*
 * A live socket's start message: a keyless vendor upgrade's key, the start's checks and options, then
 * the session opened on the socket's ticket and wired to it (events and persona audio out).
 */
import { SocketSink } from '../../events/socket-sink.js';
import type { Services } from '../../services.js';
import type { SessionActor } from '../../session/actor.js';
import { startProblem } from '../../session/start.js';
import type { Supervisor } from '../../session/supervisor.js';
import type { Serializer, StartInfo } from '../../transport/types.js';
import { CLOSE_ENDED, CLOSE_INTERNAL, leaveKeyless, refuse, type Conn } from './conn.js';
import { closeReason } from './refusals.js';

export interface StartDeps {
  services: Services;
  supervisor: Supervisor;
}

/** Handles a decoded start: the socket becomes a session, or closes with no events. */
export function onStart(conn: Conn, serializer: Serializer, info: StartInfo, deps: StartDeps): void {
  const authorized = conn.ticket.key ? Promise.resolve(true) : authorizeStart(conn, serializer, info);
  authorized
    .then((ok) => (ok ? begin(conn, serializer, info, deps) : undefined))
    .catch((err: unknown) => {
      deps.services.log.error({ err }, 'starting a live session failed');
      refuse(conn, 'internal error', CLOSE_INTERNAL);
    });
}

/**
 * A keyless vendor upgrade: only a vendor start carrying a valid `key` parameter may start a
 * session. Anything else closes the socket with no events, like any refused start.
 */
async function authorizeStart(conn: Conn, serializer: Serializer, info: StartInfo): Promise<boolean> {
  conn.phase = 'starting';
  conn.started$.next();
  const vendor = serializer.protocol === 'vendor_a' || serializer.protocol === 'vendor_b';
  const refusal = await conn.ticket.identify(vendor ? info.params.key?.trim() : undefined);
  leaveKeyless(conn);
  // Closed while the key was looked up: the close handler left the slot to us (phase 'starting').
  if (conn.closed) {
    conn.phase = 'done';
    conn.ticket.release();
    return false;
  }
  if (refusal) {
    refuse(conn, closeReason(refusal));
    return false;
  }
  return true;
}

async function begin(conn: Conn, serializer: Serializer, info: StartInfo, deps: StartDeps): Promise<void> {
  conn.phase = 'starting';
  conn.started$.next();
  const problem = startProblem(info, conn.kind);
  if (problem) return refuse(conn, `invalid start: ${problem}`);
  // The key parameter authenticates; it is not an option and is never kept with the session.
  const { key: _key, ...params } = info.params;
  // An unknown persona id is a bad start: closed with no events, nothing charged.
  const options = conn.ticket.options(params);
  if (!options.ok) return refuse(conn, closeReason(options.refusal));
  // Gone (or refused, e.g. a frame over the cap) before anything was charged: the client never saw the
  // session start, so there is none to charge or store.
  if (conn.closed) {
    conn.phase = 'done';
    conn.ticket.release();
    return;
  }
  let opened;
  try {
    opened = await conn.ticket.open(serializer.protocol, { ...info, params }, options.value);
  } catch (err) {
    deps.services.log.error({ err }, 'opening a live session failed');
    return refuse(conn, 'internal error', CLOSE_INTERNAL);
  }
  if (!opened.ok) return refuse(conn, closeReason(opened.refusal));
  const session = opened.value;
  conn.session = session;
  if (!conn.closed && conn.ws) attach(conn, session, serializer);
  conn.phase = 'live';
  // Until its graph runs (on a later turn of the loop), the session keeps these and later frames in order.
  for (const f of conn.early) session.push(f);
  conn.early = [];
  // The socket closed while the first minute was charged: the session ends at once, properly, but the
  // client never saw it start (`session.started` goes out once its graph runs), so that minute is given back.
  if (conn.closed && conn.phase === 'live') {
    session.end('closed');
    const price = conn.ticket.price(options.value);
    deps.services.store.keys.credit(session.spec.key.id, price).catch((err: unknown) => {
      deps.services.log.error({ err, session: session.id }, 'giving back the first minute of an unseen session failed');
    });
  }
  deps.supervisor.start(session);
}

/** The session's events and persona audio to the socket; its end closes the socket. */
function attach(conn: Conn, session: SessionActor, serializer: Serializer): void {
  const ws = conn.ws!;
  const sink = new SocketSink(ws, serializer);
  conn.sink = sink;
  session.events$.subscribe({
    next: (e) => {
      if (!sink.isClosed) ws.cork(() => sink.event(e));
    },
    complete: () => {
      if (sink.isClosed) return;
      conn.phase = 'done';
      conn.closed = true;
      const close = conn.closeWith ?? { code: CLOSE_ENDED, reason: 'session ended' };
      // Never inside cork: uWS sends the TCP FIN right after the close frame only when uncorked (a
      // corked end() never sends it), and WHATWG clients wait for the server to close first (RFC 6455 §7.1.1).
      sink.close(close.code, close.reason);
    },
  });
  session.outbound$.subscribe((f) => {
    if (!sink.isClosed) ws.cork(() => sink.outbound(f));
  });
}
