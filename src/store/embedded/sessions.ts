import type { StoredSession } from '../../domain/session.js';
import type { SessionsPort } from '../types.js';
import type { Db } from './db.js';
import type { GroupCommit } from './group-commit.js';

type Row = { doc: string };
const parse = (row: Row): StoredSession => JSON.parse(row.doc) as StoredSession;

/** The whole record rides in `doc`; the columns beside it exist only to be queried. */
export function embeddedSessions(db: Db, batch: GroupCommit): SessionsPort {
  const upsert = db.prepare(
    `INSERT INTO sessions (id, key_id, started_at, state, node_id, doc)
     VALUES (@id, @key_id, @started_at, @state, @node_id, @doc)
     ON CONFLICT (id) DO UPDATE SET key_id = excluded.key_id, started_at = excluded.started_at,
       state = excluded.state, node_id = excluded.node_id, doc = excluded.doc`,
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

  return {
    async put(s) {
      const row = {
        id: s.id,
        key_id: s.key_id,
        started_at: s.started_at,
        state: s.state,
        node_id: s.node_id ?? null,
        doc: JSON.stringify(s),
      };
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
  };
}
