/*
 * Admission refusals in the socket entry points' wire forms: an HTTP error on the upgrade, or a close
 * with no events once the socket is open (the start carried the key or the option that was refused).
 */
import type { Refusal } from '../../session/admission.js';

export interface UpgradeRefusal {
  status: string;
  message: string;
  headers: Record<string, string>;
}

export function upgradeRefusal(r: Refusal): UpgradeRefusal {
  const plain = (status: string, message: string): UpgradeRefusal => ({ status, message, headers: {} });
  switch (r.cause) {
    case 'key_missing':
      return plain('401 Unauthorized', 'key: missing (X-Auth header or key query parameter)');
    case 'key_wrong':
      return plain('401 Unauthorized', 'key: wrong key');
    case 'no_credits':
      return plain('402 Payment Required', `insufficient credits: the first minute costs ${r.price} credits`);
    case 'rate_limited':
      return {
        status: '429 Too Many Requests',
        message: 'rate limit exceeded; retry later',
        headers: { 'Retry-After': String(r.retryAfterSeconds) },
      };
    case 'feature_off':
      return plain('503 Service Unavailable', `${r.feature} is off on this deployment`);
    case 'node_full':
      return plain('503 Service Unavailable', 'node at its live session limit; retry on a new connection');
    case 'unknown_persona':
      return plain('400 Bad Request', 'persona: unknown persona id (see GET /voice/personas)');
  }
}

/** The close reason (code 1008) of a socket refused after its upgrade. */
export function closeReason(r: Refusal): string {
  switch (r.cause) {
    case 'key_missing':
      return 'key: missing';
    case 'key_wrong':
      return 'key: wrong key';
    case 'no_credits':
      return 'insufficient credits';
    case 'rate_limited':
      return 'rate limit exceeded';
    case 'unknown_persona':
      return 'invalid start: unknown persona';
    case 'feature_off':
    case 'node_full':
      return 'server unavailable';
  }
}
