import type { Db } from 'mongodb';
import type { Domain, DomainsPort } from '../types.js';
import { fromDoc, toDoc, type WithMongoId } from './docs.js';

type DomainDoc = WithMongoId<Domain>;

export async function mongoDomains(db: Db): Promise<DomainsPort> {
  const col = db.collection<DomainDoc>('domains');
  return {
    async put(d) {
      await col.replaceOne({ _id: d.id }, toDoc(d), { upsert: true });
    },
    async get(id) {
      const doc = await col.findOne({ _id: id });
      return doc ? fromDoc<Domain>(doc) : null;
    },
  };
}
