import { SESSIONS_LIMIT_DEFAULT, SESSIONS_LIMIT_MAX } from '../../domain/limits.js';
import { publicRecord, type StoredSession } from '../../domain/session.js';
import type { Verdict } from '../../domain/verdict.js';
import type { Services } from '../../services.js';
import { HttpError, ok, type Route } from '../types.js';

/** `limit` is 1 to 200; any other value (absent, zero, too big, not a whole number) becomes 50. */
export function parseLimit(raw: string | null): number {
  if (raw === null || !/^\d+$/.test(raw.trim())) return SESSIONS_LIMIT_DEFAULT;
  const n = Number(raw);
  return n >= 1 && n <= SESSIONS_LIMIT_MAX ? n : SESSIONS_LIMIT_DEFAULT;
}

/** The verdict as read back from the stored record (source `stored`). */
export function storedVerdict(s: StoredSession): Verdict {
  const v: Verdict = {
    score: s.score,
    level: s.level,
    category: s.category,
    tactics: [...s.tactics],
    signals: [...s.signals],
    source: 'stored',
  };
  if (s.summary) v.summary = s.summary;
  return v;
}

/** The calling key's session, or 404: another key's session is reported exactly like a missing one. */
async function ownSession(s: Services, id: string, keyId: string): Promise<StoredSession> {
  const found = id.length <= 200 ? await s.store.sessions.get(id) : null;
  if (!found || found.key_id !== keyId) throw new HttpError(404, `session not found: ${id}`);
  return found;
}

export function sessionsRoutes(s: Services): Route[] {
  return [
    {
      method: 'GET',
      path: '/voice/sessions',
      auth: 'header',
      handle: async (req) => {
        const limit = parseLimit(req.query.get('limit'));
        const rows = await s.store.sessions.listByKey(req.key!.id, limit);
        return ok({ sessions: rows.map(publicRecord) });
      },
    },
    {
      method: 'GET',
      path: '/voice/sessions/:id',
      auth: 'header',
      handle: async (req) => {
        const found = await ownSession(s, req.params.id ?? '', req.key!.id);
        return ok({ session: publicRecord(found), verdict: storedVerdict(found), intel: found.intel });
      },
    },
    {
      method: 'DELETE',
      path: '/voice/sessions/:id',
      auth: 'header',
      handle: async (req) => {
        const id = req.params.id ?? '';
        const found = await ownSession(s, id, req.key!.id);
        // A live call would write its record back when it ends: it is deleted after that, not before.
        if (found.state === 'open') throw new HttpError(409, `session is live: delete it after it ends (${id})`);
        await s.store.sessions.delete(id);
        return ok({ deleted: id });
      },
    },
  ];
}
