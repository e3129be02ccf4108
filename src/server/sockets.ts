import type {
  HttpRequest as UwsRequest,
  HttpResponse as UwsResponse,
  TemplatedApp,
  WebSocket,
  us_socket_context_t,
} from 'uWebSockets.js';
import { asyncScheduler, Subject, type SchedulerLike, type Subscription } from 'rxjs';
import { LIVE_PROFILES } from '../../pipelines/live/profile.js';
import type { Pipeline } from '../../pipelines/types.js';
import { startDeadline, startDeadlineMs } from '../../pipelines/start-deadline.js';
import type { Feature } from '../config.js';
import type { SessionKind } from '../domain/events.js';
import type { Frame } from '../domain/frames.js';
import { SocketSink } from '../events/socket-sink.js';
import { frameProbe } from '../observability/frame-probe.js';
import { frameTally, metrics } from '../observability/metrics.js';
import type { Services } from '../services.js';
import type { SessionActor } from '../session/actor.js';
import { mergeOptions, urlOptions } from '../session/options.js';
import { startProblem } from '../session/start.js';
import { InsufficientCreditsError, Supervisor } from '../session/supervisor.js';
import type { Reservation } from '../session/types.js';
import { detectSerializer } from '../transport/detect.js';
import { verifiedVendor } from '../transport/vendor-signature.js';
import type { Serializer, StartInfo } from '../transport/types.js';
import type { KeyRecord } from '../store/types.js';
import { authenticate, presentedKey } from './auth.js';
import type { Mount, NodeContext } from './types.js';
import { findPersona } from '../honeypot/personas.js';

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

const FEATURE: Readonly<Record<SessionKind, Feature>> = { filter: 'live_filter', honeypot: 'honeypot' };
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
const EARLY_LIMIT = 2000;
/**
 * Keyless vendor upgrades (signature verified, key still to come in the start event) waiting at once, and
 * how long each may wait. A vendor sends its start within a second of connecting; the small cap keeps
 * anyone who got hold of one signed upgrade from holding the node's session slots with replays of it.
 */
export const KEYLESS_PENDING_MAX = 16;
export const KEYLESS_START_TIMEOUT_MS = 5000;

export interface LiveSocketOptions {
  scheduler?: SchedulerLike;
  /** Shorter start timeouts (tests); the spec's 15 s / 10 s otherwise. */
  startTimeoutMs?: Partial<Record<SessionKind, number>>;
  capacity?: number;
  pipelines?: Partial<Record<SessionKind, Pipeline>>;
  webhookTls?: { ca?: string | Buffer; rejectUnauthorized?: boolean };
  keylessPendingMax?: number;
}

/** Keyless upgrades waiting for their start, node-wide. */
interface KeylessPool {
  pending: number;
  max: number;
}

/** The first four fields are the ones every frame reads: created first, they share the object's first cache line. */
interface Conn {
  phase: 'waiting' | 'starting' | 'live' | 'done';
  serializer: Serializer | null;
  session: SessionActor | null;
  early: Frame[];
  kind: SessionKind;
  /** Null on a keyless vendor upgrade until its start event's `key` parameter authenticates. */
  key: KeyRecord | null;
  rawKey: string | null;
  limits: NodeContext['limits'];
  url: Record<string, string>;
  reservation: Reservation;
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

export interface LiveSockets {
  mount: Mount;
  supervisor: Supervisor;
}

/** The filter and honeypot socket entry points (`/voice/filter/stream`, `/voice/honeypot/stream`). */
export function liveSockets(services: Services, opts: LiveSocketOptions = {}): LiveSockets {
  const scheduler = opts.scheduler ?? asyncScheduler;
  const supervisor = new Supervisor(services, {
    scheduler,
    ...(opts.capacity !== undefined ? { capacity: opts.capacity } : {}),
    ...(opts.pipelines ? { pipelines: opts.pipelines } : {}),
    ...(opts.webhookTls ? { webhookTls: opts.webhookTls } : {}),
  });
  const sockets = new Set<Conn>();
  const keyless: KeylessPool = { pending: 0, max: opts.keylessPendingMax ?? KEYLESS_PENDING_MAX };
  const mount: Mount = (app: TemplatedApp, node: NodeContext) => {
    for (const kind of ['filter', 'honeypot'] as const) {
      app.ws<Conn>(`/voice/${kind}/stream`, {
        maxPayloadLength: UWS_MAX_PAYLOAD,
        // Quiet text-only calls are normal: uWS pings, and the client's pongs keep the socket alive.
        idleTimeout: 120,
        sendPingsAutomatically: true,
        maxBackpressure: 4 * 1024 * 1024,
        upgrade: (res, req, context) => upgrade(kind, res, req, context, services, node, supervisor, keyless),
        open: (ws) => {
          open(ws, opts.startTimeoutMs?.[kind] ?? startDeadlineMs(kind), scheduler);
          sockets.add(ws.getUserData());
        },
        message: (ws, message, isBinary) => onMessage(ws, message, isBinary, supervisor, services),
        drain: (ws) => ws.getUserData().sink?.drain(),
        close: (ws) => {
          sockets.delete(ws.getUserData());
          onClose(ws);
        },
      });
    }
    // Leases are held for every session of the node (SIP calls share this supervisor) until it has drained.
    const leases = supervisor.holdLeases();
    return {
      drain: async () => {
        // Sockets still waiting for their start will never get a session: tell them to go elsewhere.
        for (const conn of sockets)
          if (conn.phase === 'waiting') refuse(conn, 'server shutting down', CLOSE_GOING_AWAY);
        try {
          await supervisor.drain(services.config.drainSeconds * 1000);
        } finally {
          leases.unsubscribe();
          // A session the drain could not finish in time still gets a close frame rather than a reset.
          for (const conn of sockets) if (!conn.closed) refuse(conn, 'server shutting down', CLOSE_GOING_AWAY);
        }
      },
    };
  };
  return { mount, supervisor };
}

function upgrade(
  kind: SessionKind,
  res: UwsResponse,
  req: UwsRequest,
  context: us_socket_context_t,
  services: Services,
  node: NodeContext,
  supervisor: Supervisor,
  keyless: KeylessPool,
): void {
  // Everything from `req` now: it is invalid after this function returns.
  const rawQuery = req.getQuery() ?? '';
  const query = new URLSearchParams(rawQuery);
  const headers = { 'x-auth': req.getHeader('x-auth') };
  const all: Record<string, string> = {};
  req.forEach((k, v) => (all[k] = v));
  const signedBy = verifiedVendor(
    { headers: all, path: req.getUrl(), query: rawQuery, publicUrl: services.config.publicUrl },
    services.config,
    Date.now(),
  );
  const secKey = req.getHeader('sec-websocket-key');
  const secProtocol = req.getHeader('sec-websocket-protocol');
  const secExtensions = req.getHeader('sec-websocket-extensions');
  const ip = Buffer.from(res.getRemoteAddressAsText()).toString('utf8');
  const entry = `${kind}_stream`;

  let aborted = false;
  let reservation: Reservation | null = null;
  res.onAborted(() => {
    aborted = true;
    reservation?.release();
  });
  const refuse = (status: string, message: string, extra: Record<string, string> = {}) => {
    if (aborted) return;
    res.cork(() => {
      res.writeStatus(status).writeHeader('content-type', 'application/json');
      for (const [k, v] of Object.entries(extra)) res.writeHeader(k, v);
      res.end(JSON.stringify({ status: 'error', message }), true);
    });
  };

  const byAddress = node.limits.address(ip);
  if (!byAddress.ok) {
    metrics.rejected.inc({ status: '429', entry });
    return refuse('429 Too Many Requests', 'rate limit exceeded; retry later', {
      'Retry-After': String(byAddress.retryAfterSeconds),
    });
  }
  if (!services.config.features.has(FEATURE[kind]) || !supervisor.hasPipeline(kind)) {
    metrics.rejected.inc({ status: '503', entry });
    return refuse('503 Service Unavailable', `${FEATURE[kind]} is off on this deployment`);
  }
  reservation = supervisor.reserve();
  if (!reservation) {
    metrics.rejected.inc({ status: '503', entry });
    return refuse('503 Service Unavailable', 'node at its live session limit; retry on a new connection');
  }
  const slot = reservation;
  const rawKey = presentedKey(headers, query, 'header-or-query');
  const url = urlOptions(query);

  void (async () => {
    // Vendor A drops query strings from stream URLs: its upgrade, signed with the account's secret, may
    // wait for the key in the start event's stream parameters (docs/vendors.md). Any other keyless
    // upgrade is refused: a signature header that no configured secret verifies proves nothing.
    const key = rawKey ? await authenticate(services.store, rawKey) : null;
    if (!key && (rawKey || !signedBy)) {
      slot.release();
      return refuse(
        '401 Unauthorized',
        rawKey ? 'key: wrong key' : 'key: missing (X-Auth header or key query parameter)',
      );
    }
    const byKey = key ? node.limits.key(key.id) : { ok: true as const, retryAfterSeconds: 0 };
    if (!byKey.ok) {
      slot.release();
      metrics.rejected.inc({ status: '429', entry });
      return refuse('429 Too Many Requests', 'rate limit exceeded; retry later', {
        'Retry-After': String(byKey.retryAfterSeconds),
      });
    }
    // A key that cannot pay the first minute is told so now (402) rather than after its start message.
    const price = LIVE_PROFILES[kind].minutePrice(kind === 'filter' && url.tracks?.toLowerCase() === 'both');
    if (key && (await services.store.keys.balance(key.id)) < price) {
      slot.release();
      return refuse('402 Payment Required', `insufficient credits: the first minute costs ${price} credits`);
    }
    if (aborted) return slot.release();
    if (!key && keyless.pending >= keyless.max) {
      slot.release();
      metrics.rejected.inc({ status: '503', entry });
      return refuse(
        '503 Service Unavailable',
        'node at its limit of keyless vendor sockets; retry on a new connection',
      );
    }
    if (!key) keyless.pending++;
    const conn: Conn = {
      phase: 'waiting',
      serializer: null,
      session: null,
      early: [],
      kind,
      key,
      rawKey: rawKey ?? null,
      limits: node.limits,
      url,
      reservation: slot,
      started$: new Subject<void>(),
      timer: null,
      sink: null,
      closed: false,
      ws: null,
      keyless: key ? null : keyless,
      closeWith: null,
    };
    res.cork(() => res.upgrade(conn, secKey, secProtocol, secExtensions, context));
  })().catch((err: unknown) => {
    slot.release();
    services.log.error({ err }, 'socket upgrade failed');
    refuse('500 Internal Server Error', 'internal error');
  });
}

function open(ws: WebSocket<Conn>, startTimeoutMs: number, scheduler: SchedulerLike): void {
  const conn = ws.getUserData();
  conn.ws = ws;
  const ms = conn.keyless ? Math.min(startTimeoutMs, KEYLESS_START_TIMEOUT_MS) : startTimeoutMs;
  conn.timer = conn.started$.pipe(startDeadline(ms, scheduler)).subscribe({
    error: () => refuse(conn, 'start timeout'),
  });
}

/** The keyless upgrade's start has been dealt with (or never will be): it no longer counts against the cap. */
function leaveKeyless(conn: Conn): void {
  if (conn.keyless) conn.keyless.pending--;
  conn.keyless = null;
}

/** Closes a socket that never became a session: no events, nothing charged. */
function refuse(conn: Conn, reason: string, code = CLOSE_REFUSED): void {
  leaveKeyless(conn);
  conn.phase = 'done';
  conn.timer?.unsubscribe();
  if (!conn.closed) {
    conn.closed = true;
    conn.ws?.end(code, reason);
  }
}

function onMessage(
  ws: WebSocket<Conn>,
  message: ArrayBuffer,
  isBinary: boolean,
  supervisor: Supervisor,
  services: Services,
): void {
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
    if (d.type === 'start') {
      const serializer = conn.serializer;
      const info = d.info;
      const authorized = conn.key ? Promise.resolve(true) : authorizeStart(conn, serializer, info, services);
      authorized
        .then((ok) => (ok ? begin(conn, serializer, info, supervisor, services) : undefined))
        .catch((err: unknown) => {
          services.log.error({ err }, 'starting a live session failed');
          refuse(conn, 'internal error', CLOSE_INTERNAL);
        });
    }
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

/**
 * A keyless vendor upgrade: only a vendor start carrying a valid `key` parameter may start a
 * session. Anything else closes the socket with no events, like any refused start.
 */
async function authorizeStart(
  conn: Conn,
  serializer: Serializer,
  info: StartInfo,
  services: Services,
): Promise<boolean> {
  conn.phase = 'starting';
  conn.started$.next();
  const vendor = serializer.protocol === 'vendor_a' || serializer.protocol === 'vendor_b';
  const presented = vendor ? info.params.key?.trim() : undefined;
  const key = await authenticate(services.store, presented);
  leaveKeyless(conn);
  // Closed while the key was looked up: the close handler left the slot to us (phase 'starting').
  if (conn.closed) {
    conn.phase = 'done';
    conn.reservation.release();
    return false;
  }
  if (!key || !presented) {
    refuse(conn, presented ? 'key: wrong key' : 'key: missing');
    return false;
  }
  if (!conn.limits.key(key.id).ok) {
    refuse(conn, 'rate limit exceeded');
    return false;
  }
  conn.key = key;
  conn.rawKey = presented;
  return true;
}

async function begin(
  conn: Conn,
  serializer: Serializer,
  info: StartInfo,
  supervisor: Supervisor,
  services: Services,
): Promise<void> {
  conn.phase = 'starting';
  conn.started$.next();
  const problem = startProblem(info, conn.kind);
  if (problem) return refuse(conn, `invalid start: ${problem}`);
  const { key: _key, ...params } = info.params;
  const spec = {
    kind: conn.kind,
    protocol: serializer.protocol,
    key: conn.key!,
    rawKey: conn.rawKey!,
    // The key parameter authenticates; it is not an option and is never kept with the session.
    start: { ...info, params },
    options: mergeOptions(conn.kind, conn.url, params),
  };
  // An unknown persona id is a bad start: closed with no events, nothing charged.
  if (spec.options.persona !== undefined && !findPersona(services.personas, spec.options.persona)) {
    return refuse(conn, 'invalid start: unknown persona');
  }
  // Gone (or refused, e.g. a frame over the cap) before anything was charged: the client never saw the
  // session start, so there is none to charge or store.
  if (conn.closed) {
    conn.phase = 'done';
    conn.reservation.release();
    return;
  }
  let session: SessionActor;
  try {
    session = await supervisor.open(spec, conn.reservation);
  } catch (err) {
    conn.reservation.release();
    if (err instanceof InsufficientCreditsError) return refuse(conn, 'insufficient credits');
    services.log.error({ err }, 'opening a live session failed');
    return refuse(conn, 'internal error', CLOSE_INTERNAL);
  }
  conn.session = session;
  if (!conn.closed && conn.ws) {
    const ws = conn.ws;
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
  conn.phase = 'live';
  // Until its graph runs (on a later turn of the loop), the session keeps these and later frames in order.
  for (const f of conn.early) session.push(f);
  conn.early = [];
  // The socket closed while the first minute was charged: the session ends at once, properly, but the
  // client never saw it start (`session.started` goes out once its graph runs), so that minute is given back.
  if (conn.closed && conn.phase === 'live') {
    session.end('closed');
    const price = LIVE_PROFILES[conn.kind].minutePrice(spec.options.tracksBoth);
    services.store.keys.credit(spec.key.id, price).catch((err: unknown) => {
      services.log.error({ err, session: session.id }, 'giving back the first minute of an unseen session failed');
    });
  }
  supervisor.start(session);
}

function onClose(ws: WebSocket<Conn>): void {
  const conn = ws.getUserData();
  leaveKeyless(conn);
  conn.closed = true;
  conn.ws = null;
  conn.timer?.unsubscribe();
  conn.sink?.detach();
  if (conn.session) {
    conn.session.end('closed');
  } else if (conn.phase !== 'starting') {
    conn.reservation.release();
  }
}
