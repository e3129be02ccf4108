import type { HttpResponse as UwsResponse } from 'uWebSockets.js';
import { HttpError } from '../types.js';

export const DEFAULT_BODY_LIMIT = 64 * 1024;
/** A client that stops sending for this long mid-body is cut off even if the route allows more time. */
export const BODY_IDLE_MS = 10_000;
/**
 * How much of a body over the cap is read and thrown away before the 413, and for how long. Closing with
 * request bytes still unread makes the kernel reset the connection, and the client (fetch, curl
 * --data-binary, most SDKs send the whole body before reading) loses the 413 to ECONNRESET. Past either
 * bound the node answers and closes anyway: a client that sends that much more deserves no better.
 */
export const DISCARD_MAX_BYTES = 64 * 1024 * 1024;
export const DISCARD_MS = 10_000;

export interface BodyOptions {
  limit: number;
  /** The whole body must have arrived by then. */
  deadlineMs: number;
  idleMs?: number;
  /** Declared Content-Length, when the client sent one. */
  declaredLength?: number;
  discardMaxBytes?: number;
  discardMs?: number;
}

/**
 * Collects a request body from uWS with a hard size cap and a slow-body timeout. Must be called
 * synchronously inside the uWS request handler: chunks that arrive before `onData` is attached are lost.
 * uWS reuses (neuters) each chunk's ArrayBuffer after the callback, so every chunk is copied.
 * Rejects with HttpError 408, or 413 once the rest of an over-cap body has been read and dropped (within
 * the discard bounds); the caller answers and closes the connection.
 */
export function collectBody(res: UwsResponse, opts: BodyOptions): { body: Promise<Buffer>; cancel(): void } {
  const discardMax = opts.discardMaxBytes ?? DISCARD_MAX_BYTES;
  if (opts.declaredLength !== undefined && opts.declaredLength > opts.limit + discardMax) {
    return { body: Promise.reject(tooLarge(opts.limit)), cancel: () => undefined };
  }
  const idleMs = Math.min(opts.idleMs ?? BODY_IDLE_MS, opts.deadlineMs);
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  let discarding = false;
  let idle: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;
  let resolve!: (b: Buffer) => void;
  let reject!: (e: unknown) => void;
  const body = new Promise<Buffer>((res_, rej) => {
    resolve = res_;
    reject = rej;
  });
  // The caller may answer early (e.g. 401) without awaiting the body; never leave a rejection unhandled.
  body.catch(() => undefined);

  const finish = (err: unknown, value?: Buffer): void => {
    if (settled) return;
    settled = true;
    clearTimeout(deadline);
    clearTimeout(idle);
    if (err) reject(err);
    else resolve(value ?? Buffer.alloc(0));
  };
  const slow = (): void => finish(new HttpError(408, 'body: not received in time'));
  /** From here on chunks are counted and dropped; the 413 goes out when the body ends or a bound passes. */
  const over = (): void => finish(tooLarge(opts.limit));
  const discard = (): void => {
    discarding = true;
    chunks.length = 0;
    clearTimeout(deadline);
    clearTimeout(idle);
    deadline = setTimeout(over, opts.discardMs ?? DISCARD_MS);
    idle = setTimeout(over, idleMs);
  };
  if (opts.declaredLength !== undefined && opts.declaredLength > opts.limit) discard();
  else {
    deadline = setTimeout(slow, opts.deadlineMs);
    idle = setTimeout(slow, idleMs);
  }

  res.onData((chunk, isLast) => {
    if (settled) return;
    size += chunk.byteLength;
    if (!discarding && size > opts.limit) discard();
    if (discarding) {
      if (isLast || size > opts.limit + discardMax) return over();
      clearTimeout(idle);
      idle = setTimeout(over, idleMs);
      return;
    }
    // `slice` copies out of the buffer uWS reuses; `Buffer.from` of an ArrayBuffer only wraps that copy.
    chunks.push(Buffer.from(chunk.slice(0)));
    if (isLast) {
      finish(null, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
      return;
    }
    clearTimeout(idle);
    idle = setTimeout(slow, idleMs);
  });

  return { body, cancel: () => finish(new Error('cancelled')) };
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `body: larger than the limit of ${limit} bytes`);
}
