/**
 * Session leases: a node vouches for its live sessions in the store by moving their lease forward; once a
 * lease has run out, any node may end the session with what was recorded (its node died, and may never
 * come back under the same name). A renewal comes every third of the lease, so two may be missed (a store
 * hiccup, a long pause) before another node steps in; a sweep as often closes an orphan within
 * `lease + lease / 3` of its node's last renewal.
 */
export const DEFAULT_LEASE_SECONDS = 30;

/** How often a node renews its sessions' leases and sweeps for expired ones. */
export function leaseTickMs(leaseMs: number): number {
  return Math.max(1, Math.floor(leaseMs / 3));
}

/** The lease a renewal at `nowMs` gives. */
export function leaseUntil(nowMs: number, leaseMs: number): string {
  return new Date(nowMs + leaseMs).toISOString();
}
