import type { Store } from '../types.js';
import { openDb } from './db.js';
import { embeddedComplaints } from './complaints.js';
import { embeddedDomains } from './domains.js';
import { embeddedKeys } from './keys.js';
import { groupCommit } from './group-commit.js';
import { embeddedSessions } from './sessions.js';

export interface EmbeddedStore extends Store {
  readonly kind: 'embedded';
  /** The SQLite file (or `:memory:`). */
  readonly path: string;
}

/** Opens (creating and migrating when needed) the SQLite store at `path`; the directory must exist. */
export function createEmbeddedStore(path: string): EmbeddedStore {
  const db = openDb(path);
  const probe = db.prepare('SELECT 1');
  const batch = groupCommit(db);
  return {
    kind: 'embedded',
    path,
    keys: embeddedKeys(db, batch),
    sessions: embeddedSessions(db, batch),
    complaints: embeddedComplaints(db),
    domains: embeddedDomains(db),
    async ping() {
      probe.get();
    },
    async close() {
      if (!db.open) return;
      batch.flush();
      db.close();
    },
  };
}
