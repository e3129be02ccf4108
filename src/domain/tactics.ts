export const TACTICS = [
  'urgency',
  'secrecy',
  'authority_impersonation',
  'remote_access',
  'untraceable_payment',
  'pii_harvest',
  'otp_request',
  'threat',
  'prize_lure',
  'family_fear',
  'refund_bait',
  'callback_pressure',
] as const;

export type Tactic = (typeof TACTICS)[number];

const TACTIC_SET: ReadonlySet<string> = new Set<string>(TACTICS);
export function isTactic(value: unknown): value is Tactic {
  return typeof value === 'string' && TACTIC_SET.has(value);
}
