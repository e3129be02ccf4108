import { STATUS_CODES } from 'node:http';
import type { HttpRequest as UwsRequest, HttpResponse as UwsResponse } from 'uWebSockets.js';
import { scrubKey, type Logger } from '../../log.js';
import { metrics } from '../../observability/metrics.js';
import type { Store } from '../../store/types.js';
import { authenticate, presentedKey } from '../auth.js';
import type { RequestLimits } from '../rate-limit.js';
import { HttpError, type HttpRequest, type HttpResponse, type Route } from '../types.js';
import { collectBody, DEFAULT_BODY_LIMIT } from './body.js';
import { clientAddress } from './client-address.js';
import { requestId } from './request-id.js';
import type { Router } from './router.js';

export const DEFAULT_TIMEOUT_MS = 30_000;

export interface HandlerDeps {
  router: Router;
  store: Store;
  limits: RequestLimits;
  log: Logger;
  /** Believe X-Forwarded-For / PROXY protocol for the client address (VOICE_TRUST_PROXY). */
  trustProxy?: boolean;
}

/** Everything read from the uWS request, which is only valid until the handler first returns. */
interface Incoming {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  ip: string;
}

/** One response's lifecycle: once aborted or answered, nothing touches `res` again. */
class Exchange {
  aborted = false;
  answered = false;
  /** Status sent, for the access log. */
  answeredStatus?: number;
  readonly started = process.hrtime.bigint();
  readonly controller = new AbortController();

  constructor(
    readonly res: UwsResponse,
    readonly requestId: string,
  ) {}

  get open(): boolean {
    return !this.aborted && !this.answered;
  }

  send(r: HttpResponse, closeConnection = false): boolean {
    if (!this.open) return false;
    this.answered = true;
    this.answeredStatus = r.status;
    const body = r.text ?? JSON.stringify(r.json ?? {});
    const type =
      r.text !== undefined ? (r.contentType ?? 'text/plain; charset=utf-8') : 'application/json; charset=utf-8';
    this.res.cork(() => {
      this.res.writeStatus(`${r.status} ${STATUS_CODES[r.status] ?? 'Unknown'}`);
      this.res.writeHeader('Content-Type', r.contentType ?? type);
      this.res.writeHeader('X-Request-Id', this.requestId);
      for (const [k, v] of Object.entries(r.headers ?? {})) this.res.writeHeader(k, v);
      this.res.end(body, closeConnection);
    });
    return true;
  }
}

export function errorResponse(status: number, message: string, headers?: Record<string, string>): HttpResponse {
  return { status, json: { status: 'error', message }, headers };
}

/**
 * The single uWS HTTP entry: reads the request synchronously, then routes, rate-limits, authenticates,
 * reads the body within its limits and runs the route's handler. Every outcome, including unknown routes,
 * is a JSON body with `status`.
 */
export function createHttpHandler(deps: HandlerDeps): (res: UwsResponse, req: UwsRequest) => void {
  return (res, req) => {
    const ex = new Exchange(res, requestId(req.getHeader('x-request-id') || undefined));
    res.onAborted(() => {
      ex.aborted = true;
      ex.controller.abort(new Error('client went away'));
    });

    // Everything from `req` now: it is invalid after the first await.
    const incoming = readIncoming(res, req, deps.trustProxy);
    const match = deps.router.match(incoming.method, incoming.path);
    const route = match.kind === 'found' ? match.route : undefined;
    const declared = parseLength(incoming.headers['content-length']);
    // HTTP/1.1: a request without Content-Length or Transfer-Encoding has no body.
    const expectsBody = (declared !== undefined && declared > 0) || incoming.headers['transfer-encoding'] !== undefined;
    const timeoutMs = route?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const body =
      route && expectsBody
        ? collectBody(res, {
            limit: route.bodyLimit ?? DEFAULT_BODY_LIMIT,
            deadlineMs: timeoutMs,
            declaredLength: declared,
          })
        : undefined;

    // Made when first used: most requests log nothing below the access line, which is often off.
    let child: Logger | undefined;
    const log = (): Logger => (child ??= deps.log.child({ req: ex.requestId }));
    void serve(deps, ex, incoming, match, body?.body, timeoutMs, log).finally(() => {
      body?.cancel();
      const status = ex.answeredStatus ?? (ex.aborted ? 499 : 500);
      const ms = Number(process.hrtime.bigint() - ex.started) / 1e6;
      const labels = { route: route?.path ?? 'unmatched', status: String(status) };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, ms / 1000);
      // 429s are counted where they are decided; 503s come from routes (feature off).
      if (status === 503) metrics.rejected.inc({ status: '503', entry: 'http' });
      if (!deps.log.isLevelEnabled('info')) return;
      log().info(
        {
          method: incoming.method,
          path: scrubKey(incoming.path),
          status,
          ms: Math.round(ms * 10) / 10,
          ip: incoming.ip,
        },
        'http',
      );
    });
  };
}

async function serve(
  deps: HandlerDeps,
  ex: Exchange,
  inc: Incoming,
  match: ReturnType<Router['match']>,
  bodyPromise: Promise<Buffer> | undefined,
  timeoutMs: number,
  log: () => Logger,
): Promise<void> {
  // An unread body would poison a kept-alive connection: close it whenever we answer without reading.
  const reply = (r: HttpResponse, close = bodyPromise !== undefined): void => {
    ex.send(r, close);
  };
  const timer = setTimeout(() => {
    ex.controller.abort(new HttpError(504, 'request timed out'));
    reply(errorResponse(504, 'request timed out'), true);
  }, timeoutMs);
  try {
    const byAddress = deps.limits.address(inc.ip);
    if (!byAddress.ok) return reply(tooMany(byAddress.retryAfterSeconds));
    if (match.kind === 'none') return reply(errorResponse(404, `no route for ${inc.method} ${inc.path}`));
    if (match.kind === 'method') {
      return reply(
        errorResponse(405, `method ${inc.method} not allowed on ${inc.path}`, { Allow: match.allowed.join(', ') }),
      );
    }
    const route: Route = match.route;

    let key: HttpRequest['key'];
    let rawKey: string | undefined;
    if (route.auth !== 'none') {
      rawKey = presentedKey(inc.headers, inc.query, route.auth);
      key = (await authenticate(deps.store, rawKey)) ?? undefined;
      if (!key) {
        const where = route.auth === 'header' ? 'X-Auth header' : 'X-Auth header or key query parameter';
        return reply(errorResponse(401, rawKey ? `key: wrong key (${where})` : `key: missing (${where})`));
      }
      const byKey = deps.limits.key(key.id);
      if (!byKey.ok) return reply(tooMany(byKey.retryAfterSeconds));
    }

    const body = bodyPromise ? await bodyPromise : Buffer.alloc(0);
    if (!ex.open) return;
    const req: HttpRequest = {
      method: inc.method,
      path: inc.path,
      query: inc.query,
      headers: inc.headers,
      body,
      ip: inc.ip,
      requestId: ex.requestId,
      get log() {
        return log();
      },
      params: match.params,
      key,
      rawKey,
      signal: ex.controller.signal,
    };
    const out = await route.handle(req);
    reply(out, false);
  } catch (err) {
    if (err instanceof HttpError) {
      // 413/408 arrive before the body was read through: close the connection after answering.
      const close = err.status === 413 || err.status === 408;
      return reply(errorResponse(err.status, err.message, err.headers), close);
    }
    if (ex.aborted) return;
    log().error({ err }, 'handler failed');
    reply(errorResponse(500, 'internal error'), true);
  } finally {
    clearTimeout(timer);
  }
}

function tooMany(retryAfterSeconds: number): HttpResponse {
  metrics.rejected.inc({ status: '429', entry: 'http' });
  return errorResponse(429, 'rate limit exceeded; retry later', { 'Retry-After': String(retryAfterSeconds) });
}

function readIncoming(res: UwsResponse, req: UwsRequest, trustProxy: boolean | undefined): Incoming {
  const headers: Record<string, string> = {};
  req.forEach((k, v) => {
    headers[k] = headers[k] === undefined ? v : `${headers[k]}, ${v}`;
  });
  return {
    method: req.getCaseSensitiveMethod().toUpperCase(),
    path: req.getUrl(),
    query: new URLSearchParams(req.getQuery() ?? ''),
    headers,
    ip: clientAddress(res, headers['x-forwarded-for'], trustProxy),
  };
}

function parseLength(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return undefined;
  return Number(raw);
}
