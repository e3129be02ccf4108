import type { TemplatedApp } from 'uWebSockets.js';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { startDeadlineMs } from '../../pipelines/start-deadline.js';
import type { Pipeline } from '../../pipelines/types.js';
import type { SessionKind } from '../domain/events.js';
import type { Services } from '../services.js';
import { Admission } from '../session/admission.js';
import { Supervisor } from '../session/supervisor.js';
import {
  CLOSE_GOING_AWAY,
  KEYLESS_PENDING_MAX,
  UWS_MAX_PAYLOAD,
  refuse,
  type Conn,
  type KeylessPool,
} from './socket/conn.js';
import { onClose, onMessage, onOpen } from './socket/frames.js';
import { upgrade } from './socket/upgrade.js';
import type { Mount, NodeContext } from './types.js';

export interface LiveSocketOptions {
  scheduler?: SchedulerLike;
  /** Shorter start timeouts (tests); the spec's 15 s / 10 s otherwise. */
  startTimeoutMs?: Partial<Record<SessionKind, number>>;
  capacity?: number;
  pipelines?: Partial<Record<SessionKind, Pipeline>>;
  webhookTls?: { ca?: string | Buffer; rejectUnauthorized?: boolean };
  keylessPendingMax?: number;
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
    const admission = new Admission({
      features: services.config.features,
      store: services.store,
      personas: services.personas,
      supervisor,
      limits: node.limits,
    });
    const deps = { services, supervisor };
    for (const kind of ['filter', 'honeypot'] as const) {
      app.ws<Conn>(`/voice/${kind}/stream`, {
        maxPayloadLength: UWS_MAX_PAYLOAD,
        // Quiet text-only calls are normal: uWS pings, and the client's pongs keep the socket alive.
        idleTimeout: 120,
        sendPingsAutomatically: true,
        maxBackpressure: 4 * 1024 * 1024,
        upgrade: (res, req, context) => upgrade(kind, res, req, context, { services, node, admission, keyless }),
        open: (ws) => {
          onOpen(ws, opts.startTimeoutMs?.[kind] ?? startDeadlineMs(kind), scheduler);
          sockets.add(ws.getUserData());
        },
        message: (ws, message, isBinary) => onMessage(ws, message, isBinary, deps),
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
