import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

/** How long a writer waits for another process's write lock before giving up. */
const BUSY_TIMEOUT_MS = 10_000;

/**
 * Opens the SQLite file for one process. Several node processes on one machine share the file:
 * WAL lets readers run beside the single writer, and busy_timeout makes a writer wait its turn
 * instead of failing with SQLITE_BUSY.
 */
export function openDb(file: string): Db {
  const db = new Database(file);
  // busy_timeout first: switching to WAL itself takes a lock another process may hold.
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  // NORMAL is durable across process crashes in WAL mode; only a power cut can lose the last commits.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

/** Brings the schema to the newest version. Safe when several processes start at once. */
function migrate(db: Db): void {
  const current = (): number => db.pragma('user_version', { simple: true }) as number;
  if (current() >= MIGRATIONS.length) return;
  // IMMEDIATE takes the write lock up front, so two processes cannot both apply the same step.
  db.transaction(() => {
    for (let v = current(); v < MIGRATIONS.length; v++) {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    }
  }).immediate();
}
