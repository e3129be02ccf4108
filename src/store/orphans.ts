import type { StoredSession } from '../domain/session.js';
import type { SessionsPort } from './types.js';

/** What an orphaned record says about itself, since its final analysis never ran. */
export const INTERRUPTED_SUMMARY = 'The session was interrupted: its node stopped before the call ended.';

/**
 * Ends the sessions this node left `open` (it was killed mid-call and never wrote their final record).
 * Each keeps what was recorded; it is marked `ended`, at its recorded end when there is one, else at `now`.
 * Run at boot, after the journal's leftovers are replayed (they may hold the real final records).
 */
export async function closeOrphans(
  store: { sessions: SessionsPort },
  nodeId: string,
  now: Date = new Date(),
): Promise<StoredSession[]> {
  const closed: StoredSession[] = [];
  for (const s of await store.sessions.listOpen(nodeId)) {
    const endedAt = s.ended_at ?? now.toISOString();
    const elapsed = Math.floor((Date.parse(endedAt) - Date.parse(s.started_at)) / 1000);
    const rec: StoredSession = {
      ...s,
      state: 'ended',
      ended_at: endedAt,
      duration_seconds: s.duration_seconds ?? (Number.isFinite(elapsed) ? Math.max(0, elapsed) : 0),
      summary: s.summary ?? INTERRUPTED_SUMMARY,
    };
    await store.sessions.put(rec);
    closed.push(rec);
  }
  return closed;
}
