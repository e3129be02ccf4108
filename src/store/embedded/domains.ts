import type { Domain, DomainsPort } from '../types.js';
import type { Db } from './db.js';

export function embeddedDomains(db: Db): DomainsPort {
  const upsert = db.prepare(
    `INSERT INTO domains (id, key_id, updated_at, doc) VALUES (@id, @key_id, @updated_at, @doc)
     ON CONFLICT (id) DO UPDATE SET key_id = excluded.key_id, updated_at = excluded.updated_at, doc = excluded.doc`,
  );
  const byId = db.prepare<[string], { doc: string }>('SELECT doc FROM domains WHERE id = ?');

  return {
    async put(d) {
      upsert.run({ id: d.id, key_id: d.key_id, updated_at: d.updated_at, doc: JSON.stringify(d) });
    },
    async get(id) {
      const row = byId.get(id);
      return row ? (JSON.parse(row.doc) as Domain) : null;
    },
  };
}
