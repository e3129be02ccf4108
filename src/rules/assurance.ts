/*
 * An honest institution's assurance ("we will never ask for your PIN") and the request that breaks it.
 */
import type { Hit } from './evidence.js';

/** Requests an honest caller's assurance promises never to make: asking one afterwards breaks it. */
const BREAKS_ASSURANCE: ReadonlySet<string> = new Set([
  'otp_request',
  'credential_request',
  'ssn_request',
  'identity_check',
  'gift_card_payment',
  'crypto_payment',
  'wire_cash_payment',
  'remote_request',
  'remote_tool',
]);
/** What asking after promising not to adds: it is the scammer's move, stronger evidence than the ask alone. */
export const BROKEN_ASSURANCE_BONUS = 1.0;

/**
 * True when the caller gave an assurance ("we will never ask for your PIN") and then made one of the
 * requests it rules out. The assurance then counts for nothing: a scammer can say it on purpose.
 */
export function assuranceBroken(hits: readonly Hit[]): boolean {
  const assurance = hits.find((h) => h.cue.id === 'safety_disclaimer');
  return !!assurance && hits.some((h) => BREAKS_ASSURANCE.has(h.cue.id) && h.at > assurance.at);
}
