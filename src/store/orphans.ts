import type { StoredSession } from '../domain/session.js';
import type { SessionsPort } from './types.js';

/** What an orphaned record says about itself, since its final analysis never ran. */
export const INTERRUPTED_SUMMARY = 'The session was interrupted: its node stopped before the call ended.';

/** An orphan's last record: what was recorded, marked `ended` at its recorded end when there is one, else at `now`. */
export function interruptedRecord(s: StoredSession, now: Date): StoredSession {
  const endedAt = s.ended_at ?? now.toISOString();
  const elapsed = Math.floor((Date.parse(endedAt) - Date.parse(s.started_at)) / 1000);
  const { lease_until: _lease, ...kept } = s;
  return {
    ...kept,
    state: 'ended',
    ended_at: endedAt,
    duration_seconds: s.duration_seconds ?? (Number.isFinite(elapsed) ? Math.max(0, elapsed) : 0),
    summary: s.summary ?? INTERRUPTED_SUMMARY,
  };
}

/**
 * Ends the sessions this node left `open` (it was killed mid-call and never wrote their final record).
 * Run at boot, after the journal's leftovers are replayed (they may hold the real final records).
 */
export async function closeOrphans(
  store: { sessions: SessionsPort },
  nodeId: string,
  now: Date = new Date(),
): Promise<StoredSession[]> {
  const closed: StoredSession[] = [];
  for (const s of await store.sessions.listOpen(nodeId)) {
    const rec = interruptedRecord(s, now);
    await store.sessions.put(rec);
    closed.push(rec);
  }
  return closed;
}

/** Sessions closed per sweep at most: a large backlog is worked off over a few sweeps, not in one burst. */
export const SWEEP_LIMIT = 100;

/**
 * Ends the sessions of any node whose lease ran out before `now`. Each close is conditional, so a node
 * that was only slow (its own final record, or a renewal, landed first) keeps its session, and two nodes
 * sweeping at once close it once.
 */
export async function closeExpired(
  store: { sessions: SessionsPort },
  now: Date = new Date(),
): Promise<StoredSession[]> {
  const at = now.toISOString();
  const closed: StoredSession[] = [];
  for (const s of await store.sessions.listExpired(at, SWEEP_LIMIT)) {
    const rec = interruptedRecord(s, now);
    if (await store.sessions.closeExpired(rec, at)) closed.push(rec);
  }
  return closed;
}
