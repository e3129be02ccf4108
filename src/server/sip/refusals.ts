/*
 * Admission refusals as SIP final responses. SIP has no 401-for-a-header or 429: a missing or wrong
 * X-Service-Key is 403, a rate limit 503 with Retry-After (RFC 3261 §21.5.4), as the address limit is.
 */
import type { Refusal } from '../../session/admission.js';

/** A final response that ends an INVITE without a call. */
export interface SipRefusal {
  status: number;
  reason: string;
  headers?: Record<string, string>;
}

export function sipRefusal(r: Refusal): SipRefusal {
  switch (r.cause) {
    case 'key_missing':
      return { status: 403, reason: 'Forbidden (X-Service-Key missing)' };
    case 'key_wrong':
      return { status: 403, reason: 'Forbidden (wrong X-Service-Key)' };
    case 'no_credits':
      return { status: 402, reason: `Payment Required (the first minute costs ${r.price} credits)` };
    case 'rate_limited':
      return {
        status: 503,
        reason: 'Service Unavailable (rate limit exceeded)',
        headers: { 'retry-after': String(r.retryAfterSeconds) },
      };
    case 'feature_off':
      return { status: 503, reason: 'Service Unavailable (honeypot is off on this deployment)' };
    case 'node_full':
      return { status: 503, reason: 'Service Unavailable (node at its live session limit)' };
    case 'unknown_persona':
      // The header is the caller's mistake, as `persona=` is on the vendor-XML entry (400 there too).
      return { status: 400, reason: 'Bad Request (unknown X-Persona, see GET /voice/personas)' };
  }
}
