import type { Db } from 'mongodb';
import type { Complaint, ComplaintsPort, NumberStatus } from '../types.js';
import { isDuplicateKey, readAll, toDoc, type WithMongoId } from './docs.js';

type ComplaintDoc = WithMongoId<Complaint>;
type Agg = { _id: string; complaints: number; first_seen: string; last_seen: string; subjects: string[] };

function toStatus(a: Agg): NumberStatus {
  return {
    number: a._id,
    reported: a.complaints > 0,
    complaints: a.complaints,
    // Subjects arrive oldest first; keep each at its first filing.
    categories: [...new Set(a.subjects)],
    first_seen: a.first_seen,
    last_seen: a.last_seen,
  };
}

export async function mongoComplaints(db: Db): Promise<ComplaintsPort> {
  const col = db.collection<ComplaintDoc>('complaints');
  await col.createIndexes([
    { key: { number: 1, session_id: 1 }, name: 'one_per_session', unique: true },
    { key: { number: 1, filed_at: 1 }, name: 'by_number' },
    { key: { filed_at: 1 }, name: 'by_time' },
  ]);

  async function aggregate(numbers: string[]): Promise<Agg[]> {
    return readAll(() =>
      col.aggregate<Agg>([
        { $match: { number: { $in: numbers } } },
        { $sort: { filed_at: 1, subject: 1 } },
        {
          $group: {
            _id: '$number',
            complaints: { $sum: 1 },
            first_seen: { $min: '$filed_at' },
            last_seen: { $max: '$filed_at' },
            subjects: { $push: '$subject' },
          },
        },
      ]),
    );
  }

  return {
    async file(c) {
      try {
        await col.insertOne(toDoc(c));
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    async status(number) {
      const [a] = await aggregate([number]);
      return a ? toStatus(a) : { number, reported: false, complaints: 0, categories: [] };
    },
    async feed(since, limit) {
      const n = Math.max(0, Math.floor(limit));
      if (n === 0) return [];
      // A number's last complaint is after `since` exactly when any of its complaints is.
      const recent = await readAll(() =>
        col.aggregate<{ _id: string; last: string }>([
          { $match: { filed_at: { $gt: since } } },
          { $group: { _id: '$number', last: { $max: '$filed_at' } } },
          { $sort: { last: 1, _id: 1 } },
          { $limit: n },
        ]),
      );
      const byNumber = new Map((await aggregate(recent.map((r) => r._id))).map((a) => [a._id, a]));
      return recent.flatMap((r) => {
        const a = byNumber.get(r._id);
        return a ? [toStatus(a)] : [];
      });
    },
  };
}
