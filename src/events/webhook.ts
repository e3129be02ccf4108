import { createHmac } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { SessionEvent } from '../domain/events.js';
import { goesToWebhook } from '../domain/events.js';
import { WEBHOOK_TIMEOUT_MS } from '../domain/limits.js';
import type { Logger } from '../log.js';
import { metrics } from '../observability/metrics.js';
import { isBlockedAddress } from './address-guard.js';

export interface WebhookOptions {
  url: string;
  /** The API key: signs each body (HMAC-SHA256). Never logged. */
  key: string;
  /** Allow loopback and private targets (config.webhookAllowPrivate). */
  allowPrivate: boolean;
  log: Logger;
  /** Spec: the receiver answers within 5 s; the server waits no longer. */
  timeoutMs?: number;
  /** Posts of one session in flight at once; more wait in a short queue. */
  concurrency?: number;
  /** Events waiting beyond that; further ones are dropped (recoverable from GET /sessions/{id}). */
  queueLimit?: number;
  /** TLS trust override for a test receiver's self-signed certificate. */
  tls?: { ca?: string | Buffer; rejectUnauthorized?: boolean };
}

export interface WebhookSink {
  /** Queues the event if it goes to webhooks; returns at once. */
  post(event: SessionEvent): void;
  /** Resolves when every queued post has finished or been abandoned. */
  idle(): Promise<void>;
}

/** `sha256=<hex>` over the exact bytes sent. */
export function signBody(body: Buffer | string, key: string): string {
  return `sha256=${createHmac('sha256', key).update(body).digest('hex')}`;
}

/**
 * Spec: only HTTPS URLs receive events; an HTTP (or malformed) URL is ignored without an error.
 * Returns the parsed URL, or null.
 */
export function webhookTarget(raw: string | undefined): URL | null {
  if (!raw) return null;
  try {
    const u = new URL(raw);
    if (u.protocol !== 'https:' || u.username || u.password) return null;
    return u;
  } catch {
    return null;
  }
}

export class BlockedTargetError extends Error {
  constructor(host: string) {
    super(`webhook target ${host} resolves to a private or reserved address`);
    this.name = 'BlockedTargetError';
  }
}

/**
 * A resolver that refuses private targets. Node connects to exactly the address this returns, so
 * the check and the connection cannot disagree (no rebinding between them).
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const usable = allowPrivate ? addresses : addresses.filter((a) => !isBlockedAddress(a.address));
      // One blocked answer poisons the name: a mixed answer is how rebinding attacks look.
      if (usable.length === 0 || usable.length !== addresses.length) {
        return callback(new BlockedTargetError(hostname), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      const first = usable[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/** Posts a session's events to its webhook: fire and forget, bounded, never blocking the session. */
export function createWebhookSink(opts: WebhookOptions): WebhookSink | null {
  const parsed = webhookTarget(opts.url);
  if (!parsed) return null;
  const target: URL = parsed;
  const timeoutMs = opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const concurrency = opts.concurrency ?? 4;
  const queueLimit = opts.queueLimit ?? 64;
  const queue: SessionEvent[] = [];
  let inFlight = 0;
  let waiters: Array<() => void> = [];

  const host = target.hostname.replace(/^\[|\]$/g, '');
  const literalBlocked = isIP(host) !== 0 && !opts.allowPrivate && isBlockedAddress(host);

  function settle(): void {
    if (inFlight === 0 && queue.length === 0) {
      const w = waiters;
      waiters = [];
      for (const resolve of w) resolve();
    }
  }

  function next(): void {
    while (inFlight < concurrency && queue.length > 0) {
      const event = queue.shift()!;
      inFlight++;
      void send(event).finally(() => {
        inFlight--;
        next();
        settle();
      });
    }
  }

  function send(event: SessionEvent): Promise<void> {
    const body = Buffer.from(JSON.stringify(event), 'utf8');
    const started = performance.now();
    return new Promise<void>((resolve) => {
      let done = false;
      // Declared before `finish`, which may run before the request is even made (a blocked literal address),
      // so it cannot be a const initialised where the timer starts.
      // eslint-disable-next-line prefer-const
      let timer: NodeJS.Timeout | undefined;
      const finish = (outcome: string, detail?: string) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        metrics.webhookPosts.inc({ outcome });
        metrics.webhookLatency.observe(performance.now() - started);
        if (outcome !== 'ok') opts.log.warn({ event: event.type, outcome, detail }, 'webhook post not delivered');
        resolve();
      };
      if (literalBlocked) return finish('blocked', 'private address');
      const req = https.request(
        target,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': String(body.length),
            'x-voice-event': event.type,
            'x-voice-signature': signBody(body, opts.key),
            'user-agent': 'voice-webhook/1',
          },
          lookup: guardedLookup(opts.allowPrivate),
          agent: false,
          ...(opts.tls ?? {}),
        },
        (res) => {
          // Redirects are not followed; any non-2xx is a failed post (no retry either way).
          res.resume();
          const status = res.statusCode ?? 0;
          finish(status >= 200 && status < 300 ? 'ok' : 'http_error', String(status));
        },
      );
      timer = setTimeout(() => {
        req.destroy(new Error('webhook answer took longer than 5 s'));
        finish('timeout');
      }, timeoutMs);
      req.on('error', (e) => finish(e instanceof BlockedTargetError ? 'blocked' : 'error', e.message));
      req.end(body);
    });
  }

  return {
    post(event) {
      if (!goesToWebhook(event.type)) return;
      if (queue.length >= queueLimit) {
        metrics.webhookPosts.inc({ outcome: 'dropped' });
        return;
      }
      queue.push(event);
      next();
    },
    idle() {
      if (inFlight === 0 && queue.length === 0) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push(resolve));
    },
  };
}
