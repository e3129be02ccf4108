import type { Services } from '../services.js';

export const INTERRUPTED_SUMMARY = 'The session was interrupted: its node stopped before the call ended.';

/**
 * Closes the sessions this node left `open` when it last stopped without draining (a crash, a kill).
 * Their live state is lost; the record becomes `ended` with what the open record held, so
 * `GET /sessions/{id}` answers and the key's history is complete. Ended time is when recovery ran,
 * so `duration_seconds` is an upper bound. Runs once at start, before the node takes sessions.
 */
export async function closeLeftOpen(services: Services, now: Date = new Date()): Promise<number> {
  const left = await services.store.sessions.listOpen(services.config.nodeId);
  for (const rec of left) {
    const started = Date.parse(rec.started_at);
    await services.store.sessions.put({
      ...rec,
      state: 'ended',
      ended_at: now.toISOString(),
      duration_seconds: Number.isFinite(started) ? Math.max(0, Math.round((now.getTime() - started) / 1000)) : 0,
      summary: rec.summary ?? INTERRUPTED_SUMMARY,
    });
  }
  if (left.length > 0) services.log.warn({ sessions: left.length }, 'closed sessions left open by an earlier run');
  return left.length;
}
