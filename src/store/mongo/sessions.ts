import type { Db } from 'mongodb';
import type { StoredSession } from '../../domain/session.js';
import type { SessionsPort } from '../types.js';
import { fromDoc, readAll, toDoc, type WithMongoId } from './docs.js';

type SessionDoc = WithMongoId<StoredSession>;

export async function mongoSessions(db: Db): Promise<SessionsPort> {
  const col = db.collection<SessionDoc>('sessions');
  await col.createIndexes([
    { key: { key_id: 1, started_at: -1 }, name: 'by_key_newest' },
    { key: { state: 1, node_id: 1 }, name: 'open_by_node' },
    { key: { state: 1, lease_until: 1 }, name: 'open_by_lease' },
  ]);
  const read = (d: SessionDoc): StoredSession => fromDoc<StoredSession>(d);

  return {
    async put(s) {
      await col.replaceOne({ _id: s.id }, toDoc(s), { upsert: true });
    },
    async get(id) {
      const doc = await col.findOne({ _id: id });
      return doc ? read(doc) : null;
    },
    async listByKey(keyId, limit) {
      const n = Math.max(0, Math.floor(limit));
      if (n === 0) return [];
      return (await readAll(() => col.find({ key_id: keyId }).sort({ started_at: -1, _id: -1 }).limit(n))).map(read);
    },
    async listOpen(nodeId) {
      return (await readAll(() => col.find({ state: 'open', node_id: nodeId }).sort({ started_at: 1, _id: 1 }))).map(
        read,
      );
    },
    async renewLeases(ids, until) {
      if (ids.length === 0) return;
      await col.updateMany({ _id: { $in: [...ids] }, state: 'open' }, { $set: { lease_until: until } });
    },
    async listExpired(now, limit) {
      const n = Math.max(0, Math.floor(limit));
      if (n === 0) return [];
      const q = { state: 'open' as const, lease_until: { $lt: now } };
      return (await readAll(() => col.find(q).sort({ lease_until: 1, _id: 1 }).limit(n))).map(read);
    },
    async closeExpired(closed, now) {
      // One conditional replace: the node's own final write or another sweeper's close, whichever lands first, wins.
      const r = await col.replaceOne({ _id: closed.id, state: 'open', lease_until: { $lt: now } }, toDoc(closed));
      return r.matchedCount === 1;
    },
    async delete(id) {
      return (await col.deleteOne({ _id: id })).deletedCount === 1;
    },
    async purgeEnded(before) {
      // ISO times in one format compare as strings; `by_key_newest` does not serve this, a full scan an hour does.
      return (await col.deleteMany({ state: { $ne: 'open' }, started_at: { $lt: before } })).deletedCount;
    },
  };
}
