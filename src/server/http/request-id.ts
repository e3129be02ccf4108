import { randomUUID } from 'node:crypto';

/**
 * A well-formed request id: 1 to 128 characters, each a letter, digit or one of `- _ . : / + = @`. That
 * covers UUIDs, hex and base64 ids and the ids load balancers and tracing proxies add, and keeps anything
 * that could split a log line or a header (spaces, quotes, commas, control characters) out.
 */
export const REQUEST_ID = /^[A-Za-z0-9\-_.:/+=@]{1,128}$/;

/**
 * The id a request is known by: the caller's `X-Request-Id` when it is well-formed, so one id follows a
 * request through the balancer, the node and the caller's own logs; otherwise (absent or malformed) a new UUID.
 */
export function requestId(incoming: string | undefined): string {
  return incoming !== undefined && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
