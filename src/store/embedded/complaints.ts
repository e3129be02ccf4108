import type { ComplaintsPort, NumberStatus } from '../types.js';
import type { Db } from './db.js';

type Agg = { number: string; complaints: number; categories: string; first_seen: string; last_seen: string };

function toStatus(row: Agg): NumberStatus {
  return {
    number: row.number,
    reported: row.complaints > 0,
    complaints: row.complaints,
    categories: JSON.parse(row.categories) as string[],
    first_seen: row.first_seen,
    last_seen: row.last_seen,
  };
}

// Categories in the order they were first filed against the number.
const AGG = `SELECT number, count(*) AS complaints, min(filed_at) AS first_seen, max(filed_at) AS last_seen,
  (SELECT json_group_array(subject) FROM (
     SELECT subject FROM complaints c2 WHERE c2.number = c.number GROUP BY subject ORDER BY min(filed_at), subject
  )) AS categories
  FROM complaints c`;

export function embeddedComplaints(db: Db): ComplaintsPort {
  // The unique (number, session_id) pair makes the second filing for a session a no-op.
  const insert = db.prepare(
    `INSERT INTO complaints (id, number, session_id, key_id, subject, comment, filed_at)
     VALUES (@id, @number, @session_id, @key_id, @subject, @comment, @filed_at)
     ON CONFLICT (number, session_id) DO NOTHING`,
  );
  const one = db.prepare<[string], Agg>(`${AGG} WHERE number = ? GROUP BY number`);
  const since = db.prepare<[string, number], Agg>(
    `${AGG} GROUP BY number HAVING max(filed_at) > ? ORDER BY last_seen, number LIMIT ?`,
  );

  return {
    async file(c) {
      return insert.run(c).changes === 1;
    },
    async status(number) {
      const row = one.get(number);
      return row ? toStatus(row) : { number, reported: false, complaints: 0, categories: [] };
    },
    async feed(sinceIso, limit) {
      return since.all(sinceIso, Math.max(0, Math.floor(limit))).map(toStatus);
    },
  };
}
