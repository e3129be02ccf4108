import type { Db } from './db.js';

export interface GroupCommit {
  /** Runs `write` in the next shared transaction; resolves with its result once that transaction commits. */
  run<T>(write: () => T): Promise<T>;
  /** Commits what is queued now (before the database closes). */
  flush(): void;
}

interface Job {
  write: () => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for one process's frequent small writes (session records, debits). In WAL mode every
 * autocommit statement takes the write lock, appends its frames and releases the lock again; under load
 * that, not the statement, was most of a write's cost. Writes asked for within one turn of the event loop
 * run in one transaction instead.
 *
 * Each write runs in its own savepoint: one that throws rolls back alone and rejects only its caller. A
 * write resolves only after the commit, so a caller never sees as done what could still be rolled back;
 * a failed commit rejects every write in it. BEGIN IMMEDIATE takes the write lock up front, so another
 * process sharing the file makes the batch wait (busy_timeout) rather than fail half way.
 */
export function groupCommit(db: Db): GroupCommit {
  let queue: Job[] = [];
  const inSavepoint = db.transaction((write: () => unknown) => write());
  const commit = db.transaction((jobs: readonly Job[]) =>
    jobs.map((job) => {
      try {
        return { ok: true as const, value: inSavepoint(job.write) };
      } catch (error) {
        return { ok: false as const, error };
      }
    }),
  );

  const flush = (): void => {
    const jobs = queue;
    queue = [];
    if (jobs.length === 0) return;
    let outcomes: ReturnType<typeof commit>;
    try {
      outcomes = commit.immediate(jobs);
    } catch (err) {
      for (const job of jobs) job.reject(err);
      return;
    }
    outcomes.forEach((o, i) => (o.ok ? jobs[i]!.resolve(o.value) : jobs[i]!.reject(o.error)));
  };

  return {
    run<T>(write: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        if (queue.length === 0) setImmediate(flush);
        queue.push({ write, resolve: resolve as (v: unknown) => void, reject });
      });
    },
    flush,
  };
}
