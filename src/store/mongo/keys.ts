import type { Db } from 'mongodb';
import type { KeyRecord, KeysPort } from '../types.js';
import { fromDoc, readAll, toDoc, type WithMongoId } from './docs.js';

type KeyDoc = WithMongoId<KeyRecord>;

function checkAmount(credits: number): void {
  if (!Number.isFinite(credits) || credits < 0)
    throw new RangeError(`credits must be a finite number ≥ 0, got ${credits}`);
}

export async function mongoKeys(db: Db): Promise<KeysPort> {
  const col = db.collection<KeyDoc>('keys');
  await col.createIndex({ hash: 1 }, { unique: true, name: 'hash_unique' });

  return {
    async create(rec) {
      checkAmount(rec.credits);
      await col.insertOne(toDoc(rec));
    },
    async findByHash(hash) {
      const doc = await col.findOne({ hash });
      return doc ? fromDoc<KeyRecord>(doc) : null;
    },
    async list() {
      return (await readAll(() => col.find().sort({ created_at: 1, _id: 1 }))).map((d) => fromDoc<KeyRecord>(d));
    },
    async credit(keyId, credits) {
      if (!Number.isFinite(credits)) throw new RangeError(`credits must be finite, got ${credits}`);
      // A pipeline update clamps at zero in the same atomic write as the addition.
      const doc = await col.findOneAndUpdate(
        { _id: keyId },
        [{ $set: { credits: { $max: [0, { $add: ['$credits', credits] }] } } }],
        { returnDocument: 'after', projection: { credits: 1 } },
      );
      if (!doc) throw new Error(`unknown key id ${keyId}`);
      return doc.credits;
    },
    async debit(keyId, credits) {
      checkAmount(credits);
      // The filter is the balance check: the document only matches while it still holds enough.
      const doc = await col.findOneAndUpdate(
        { _id: keyId, credits: { $gte: credits } },
        { $inc: { credits: -credits } },
        { projection: { _id: 1 } },
      );
      return doc !== null;
    },
    async balance(keyId) {
      const doc = await col.findOne({ _id: keyId }, { projection: { credits: 1 } });
      return doc?.credits ?? 0;
    },
    async revoke(keyId, at) {
      // A pipeline update keeps the first revocation time in the same atomic write.
      const doc = await col.findOneAndUpdate(
        { _id: keyId },
        [{ $set: { revoked_at: { $ifNull: ['$revoked_at', at] } } }],
        {
          projection: { _id: 1 },
        },
      );
      return doc !== null;
    },
    async touch(keyId, at) {
      await col.findOneAndUpdate({ _id: keyId }, [{ $set: { last_used_at: at } }], { projection: { _id: 1 } });
    },
  };
}
