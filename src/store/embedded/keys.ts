import type { KeyRecord, KeysPort } from '../types.js';
import type { Db } from './db.js';
import type { GroupCommit } from './group-commit.js';

function checkAmount(credits: number): void {
  if (!Number.isFinite(credits) || credits < 0)
    throw new RangeError(`credits must be a finite number ≥ 0, got ${credits}`);
}

const COLUMNS = 'id, hash, label, credits, created_at, expires_at, revoked_at, last_used_at';
type Row = Omit<KeyRecord, 'expires_at' | 'revoked_at' | 'last_used_at'> & {
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
};

/** A row as a record: SQL NULLs are absent fields, as in the MongoDB store. */
function record(row: Row): KeyRecord {
  const rec: KeyRecord = {
    id: row.id,
    hash: row.hash,
    label: row.label,
    credits: row.credits,
    created_at: row.created_at,
  };
  if (row.expires_at !== null) rec.expires_at = row.expires_at;
  if (row.revoked_at !== null) rec.revoked_at = row.revoked_at;
  if (row.last_used_at !== null) rec.last_used_at = row.last_used_at;
  return rec;
}

export function embeddedKeys(db: Db, batch: GroupCommit): KeysPort {
  const insert = db.prepare(
    `INSERT INTO keys (id, hash, label, credits, created_at, expires_at)
     VALUES (@id, @hash, @label, @credits, @created_at, @expires_at)`,
  );
  const byHash = db.prepare<[string], Row>(`SELECT ${COLUMNS} FROM keys WHERE hash = ?`);
  const all = db.prepare<[], Row>(`SELECT ${COLUMNS} FROM keys ORDER BY created_at, id`);
  const revoke = db.prepare<[string, string]>('UPDATE keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?');
  const touch = db.prepare<[string, string]>('UPDATE keys SET last_used_at = ? WHERE id = ?');
  const add = db.prepare<[number, string], { credits: number }>(
    'UPDATE keys SET credits = max(0, credits + ?) WHERE id = ? RETURNING credits',
  );
  // The balance check and the subtraction are one statement, so no other process can slip in between.
  const take = db.prepare<[number, string, number]>(
    'UPDATE keys SET credits = credits - ? WHERE id = ? AND credits >= ?',
  );
  const balance = db.prepare<[string], { credits: number }>('SELECT credits FROM keys WHERE id = ?');

  return {
    async create(rec) {
      checkAmount(rec.credits);
      insert.run({ ...rec, expires_at: rec.expires_at ?? null });
    },
    async findByHash(hash) {
      const row = byHash.get(hash);
      return row ? record(row) : null;
    },
    async list() {
      return all.all().map(record);
    },
    async credit(keyId, credits) {
      if (!Number.isFinite(credits)) throw new RangeError(`credits must be finite, got ${credits}`);
      const row = add.get(credits, keyId);
      if (!row) throw new Error(`unknown key id ${keyId}`);
      return row.credits;
    },
    async debit(keyId, credits) {
      checkAmount(credits);
      return batch.run(() => take.run(credits, keyId, credits).changes === 1);
    },
    async balance(keyId) {
      return balance.get(keyId)?.credits ?? 0;
    },
    async revoke(keyId, at) {
      return revoke.run(at, keyId).changes === 1;
    },
    async touch(keyId, at) {
      await batch.run(() => touch.run(at, keyId));
    },
  };
}
