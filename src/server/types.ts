import type { TemplatedApp } from 'uWebSockets.js';
import type { Logger } from '../log.js';
import type { Services } from '../services.js';
import type { KeyRecord } from '../store/types.js';
import type { RequestLimits } from './rate-limit.js';

/** A parsed HTTP request, independent of uWebSockets.js so handlers are plain async functions. */
export interface HttpRequest {
  method: string;
  /** Path without the query string, e.g. `/voice/sessions/123`. */
  path: string;
  query: URLSearchParams;
  /** Lower-cased header names. */
  headers: Readonly<Record<string, string>>;
  body: Buffer;
  ip: string;
  requestId: string;
  log: Logger;
  /** Path parameters from the route pattern (`/voice/sessions/:id` → `{ id }`). */
  params: Readonly<Record<string, string>>;
  /** Set when the route requires a key and it was valid. */
  key?: KeyRecord;
  /** The presented key (needed only to sign webhooks); never log it. */
  rawKey?: string;
  /** Aborted when the client goes away or the route's time-out passes. */
  signal: AbortSignal;
}

export interface HttpResponse {
  status: number;
  /** Serialised as JSON unless `text` is given. */
  json?: unknown;
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/** Thrown by handlers; rendered as `{ status: "error", message }` with the given HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** `header`: X-Auth only; `header-or-query`: X-Auth or `key=` (sockets and vendor-XML entry points). */
export type AuthMode = 'none' | 'header' | 'header-or-query';

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Pattern with `:name` segments. */
  path: string;
  auth: AuthMode;
  /** Hard cap on the body in bytes (default 64 KiB). */
  bodyLimit?: number;
  /** Whole-request time-out in ms (default 30 s). */
  timeoutMs?: number;
  handle(req: HttpRequest): Promise<HttpResponse>;
}

export function ok(json: Record<string, unknown>, status = 200): HttpResponse {
  return { status, json: { status: 'success', ...json } };
}

/** What a socket mount gets from the node it is mounted on. */
export interface NodeContext {
  services: Services;
  /** The node's HTTP rate limits; upgrades take from the same buckets. */
  limits: RequestLimits;
  /** Registers work the node awaits on shutdown (bounded by VOICE_DRAIN_SECONDS), after it stops accepting. */
  onDrain(hook: () => Promise<void>): void;
}

/** A mount may also return its drain hook instead of registering it. */
export interface MountHandle {
  drain?(): Promise<void>;
  /** Settles once the mount's own listeners are up (SIP); the node fails to start when it rejects. */
  ready?: Promise<unknown>;
}

/** Adds WebSocket (or other non-route) entry points to the app. */
export type Mount = (app: TemplatedApp, ctx: NodeContext) => MountHandle | void;
