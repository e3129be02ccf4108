import type { KeyRecord, KeysPort } from '../types.js';
import type { Db } from './db.js';
import type { GroupCommit } from './group-commit.js';

function checkAmount(credits: number): void {
  if (!Number.isFinite(credits) || credits < 0)
    throw new RangeError(`credits must be a finite number ≥ 0, got ${credits}`);
}

export function embeddedKeys(db: Db, batch: GroupCommit): KeysPort {
  const insert = db.prepare(
    'INSERT INTO keys (id, hash, label, credits, created_at) VALUES (@id, @hash, @label, @credits, @created_at)',
  );
  const byHash = db.prepare<[string], KeyRecord>(
    'SELECT id, hash, label, credits, created_at FROM keys WHERE hash = ?',
  );
  const all = db.prepare<[], KeyRecord>(
    'SELECT id, hash, label, credits, created_at FROM keys ORDER BY created_at, id',
  );
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
      insert.run(rec);
    },
    async findByHash(hash) {
      return byHash.get(hash) ?? null;
    },
    async list() {
      return all.all();
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
  };
}
