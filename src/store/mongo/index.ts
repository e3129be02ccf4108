import { MongoClient } from 'mongodb';
import type { Store } from '../types.js';
import { mongoComplaints } from './complaints.js';
import { mongoDomains } from './domains.js';
import { mongoKeys } from './keys.js';
import { mongoSessions } from './sessions.js';

export interface MongoStoreOptions {
  /** Database to use; by default the one the URL names, else `voice`. */
  dbName?: string;
  serverSelectionTimeoutMS?: number;
}

/** Database named in the URL path (`mongodb://host/voice`), if any. */
function dbNameOf(url: string): string | undefined {
  const m = /^mongodb(?:\+srv)?:\/\/[^/]+\/([^?]+)/.exec(url);
  return m?.[1] ? decodeURIComponent(m[1]) : undefined;
}

/** Connects, creates the indexes the queries need, and returns the store. */
export async function connectMongoStore(url: string, opts: MongoStoreOptions = {}): Promise<Store> {
  const client = new MongoClient(url, {
    serverSelectionTimeoutMS: opts.serverSelectionTimeoutMS ?? 10_000,
    // An optional field left undefined is absent, as in the embedded store, not stored as null.
    ignoreUndefined: true,
  });
  await client.connect();
  try {
    const db = client.db(opts.dbName ?? dbNameOf(url) ?? 'voice');
    const [keys, sessions, complaints, domains] = await Promise.all([
      mongoKeys(db),
      mongoSessions(db),
      mongoComplaints(db),
      mongoDomains(db),
    ]);
    return {
      kind: 'mongodb',
      keys,
      sessions,
      complaints,
      domains,
      async ping() {
        await db.command({ ping: 1 });
      },
      async close() {
        await client.close();
      },
    };
  } catch (err) {
    await client.close();
    throw err;
  }
}
