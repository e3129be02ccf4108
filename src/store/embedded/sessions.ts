import type { StoredSession } from '../../domain/session.js';
import type { SessionsPort } from '../types.js';
import type { Db } from './db.js';
import type { GroupCommit } from './group-commit.js';

type Row = { doc: string };
const parse = (row: Row): StoredSession => JSON.parse(row.doc) as StoredSession;

/** The whole record rides in `doc`; the columns beside it exist only to be queried. */
export function embeddedSessions(db: Db, batch: GroupCommit): SessionsPort {
  const upsert = db.prepare(
    `INSERT INTO sessions (id, key_id, started_at, state, node_id, lease_until, doc)
     VALUES (@id, @key_id, @started_at, @state, @node_id, @lease_until, @doc)
     ON CONFLICT (id) DO UPDATE SET key_id = excluded.key_id, started_at = excluded.started_at,
       state = excluded.state, node_id = excluded.node_id, lease_until = excluded.lease_until, doc = excluded.doc`,
  );
  const byId = db.prepare<[string], Row>('SELECT doc FROM sessions WHERE id = ?');
  const byKey = db.prepare<[string, number], Row>(
    'SELECT doc FROM sessions WHERE key_id = ? ORDER BY started_at DESC, id DESC LIMIT ?',
  );
  const open = db.prepare<[string], Row>(
    "SELECT doc FROM sessions WHERE state = 'open' AND node_id = ? ORDER BY started_at, id",
  );
  const remove = db.prepare<[string]>('DELETE FROM sessions WHERE id = ?');
  const purge = db.prepare<[string]>("DELETE FROM sessions WHERE state <> 'open' AND started_at < ?");
  // The lease lives in its column and in the doc, so a read shows the one the sweep compares.
  const renew = db.prepare<[string, string, string]>(
    `UPDATE sessions SET lease_until = ?, doc = json_set(doc, '$.lease_until', ?)
     WHERE id = ? AND state = 'open'`,
  );
  const expired = db.prepare<[string, number], Row>(
    "SELECT doc FROM sessions WHERE state = 'open' AND lease_until < ? ORDER BY lease_until, id LIMIT ?",
  );
  const closeIfExpired = db.prepare(
    `UPDATE sessions SET state = @state, node_id = @node_id, lease_until = @lease_until, doc = @doc
     WHERE id = @id AND state = 'open' AND lease_until < @now`,
  );
  const columns = (s: StoredSession) => ({
    id: s.id,
    key_id: s.key_id,
    started_at: s.started_at,
    state: s.state,
    node_id: s.node_id ?? null,
    lease_until: s.lease_until ?? null,
    doc: JSON.stringify(s),
  });

  return {
    async put(s) {
      const row = columns(s);
      await batch.run(() => upsert.run(row));
    },
    async get(id) {
      const row = byId.get(id);
      return row ? parse(row) : null;
    },
    async listByKey(keyId, limit) {
      return byKey.all(keyId, Math.max(0, Math.floor(limit))).map(parse);
    },
    async listOpen(nodeId) {
      return open.all(nodeId).map(parse);
    },
    async delete(id) {
      return batch.run(() => remove.run(id).changes === 1);
    },
    async purgeEnded(before) {
      return batch.run(() => purge.run(before).changes);
    },
    async renewLeases(ids, until) {
      if (ids.length === 0) return;
      await batch.run(() => {
        for (const id of ids) renew.run(until, until, id);
      });
    },
    async listExpired(now, limit) {
      return expired.all(now, Math.max(0, Math.floor(limit))).map(parse);
    },
    async closeExpired(closed, now) {
      const row = { ...columns(closed), now };
      return (await batch.run(() => closeIfExpired.run(row))).changes === 1;
    },
  };
}
