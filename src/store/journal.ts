import fs from 'node:fs/promises';
import path from 'node:path';
import { interval, type SchedulerLike, type Subscription } from 'rxjs';
import type { StoredSession } from '../domain/session.js';
import type { Logger } from '../log.js';
import { JournalFile } from './journal-file.js';
import { closeOrphans } from './orphans.js';
import type { SessionsPort, Store } from './types.js';

export { closeOrphans };

export interface JournalOptions {
  dataDir: string;
  nodeId: string;
  log?: Logger;
  /** How often the replay loop retries while records wait (default 5 s). */
  replayEveryMs?: number;
  /** Drives the replay loop; tests pass a virtual-time scheduler. */
  scheduler?: SchedulerLike;
}

/** The journal file of one node: a node id may hold characters a file name should not. */
export function journalPath(dataDir: string, nodeId: string): string {
  return path.join(dataDir, `journal-${nodeId.replace(/[^A-Za-z0-9._-]/g, '_')}.jsonl`);
}

/** Stored records the journal may still hold before it is compacted outside the replay timer. */
export const COMPACT_AFTER = 1000;

/**
 * Session writes that survive a store outage. `put` first appends the record to a local, fsync'd journal,
 * then writes it to the store; when the store fails the record waits in the journal (and in memory) and
 * `replay` writes it once the store answers `ping` again. Reads see waiting records, so a session is never
 * missing just because the store was briefly away.
 *
 * Compaction (rewriting the journal down to what still waits) is lazy: on the replay timer, after
 * `COMPACT_AFTER` stored records, and on close. Compacting after every write cost three more fsyncs per
 * record and capped scans at a few hundred a second. Until compacted the journal also holds records the
 * store already has, the newest version of each; replaying those at boot rewrites the same data.
 */
export class JournaledSessions implements SessionsPort {
  /** Newest record of every session the store has not confirmed yet. */
  private readonly pending = new Map<string, StoredSession>();
  /** Writes of one session run in order, so an older version never lands after a newer one. */
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly journal: JournalFile<StoredSession>;
  private loop?: Subscription;
  private replaying?: Promise<number>;
  /** The compaction queued but not yet started. */
  private compaction: Promise<void> | null = null;
  /** Records stored since the last compaction started: what the journal holds needlessly. */
  private stored = 0;

  private constructor(
    private readonly store: Store,
    private readonly opts: JournalOptions,
  ) {
    this.journal = new JournalFile(journalPath(opts.dataDir, opts.nodeId));
  }

  /** Loads what a previous run left in the journal and tries to write it straight away. */
  static async open(store: Store, opts: JournalOptions): Promise<JournaledSessions> {
    const j = new JournaledSessions(store, opts);
    await fs.mkdir(opts.dataDir, { recursive: true });
    for (const rec of await j.journal.readAll()) j.pending.set(rec.id, rec); // later lines are newer
    // Rewrite before appending anything: a torn last line would otherwise swallow the next record.
    await j.journal.rewrite(() => [...j.pending.values()]);
    if (j.pending.size > 0) {
      opts.log?.info({ sessions: j.pending.size }, 'session journal has records from a previous run');
      await j.replay();
    }
    return j;
  }

  /** Number of records waiting for the store. */
  get waiting(): number {
    return this.pending.size;
  }

  /**
   * Resolves once the record is in the store or safely in the journal; rejects only when it reached neither.
   */
  async put(s: StoredSession): Promise<void> {
    // In `pending` before the append, so a compaction running meanwhile keeps it in the file.
    this.pending.set(s.id, s);
    let journaled = true;
    try {
      await this.journal.append(s);
    } catch (err) {
      journaled = false;
      this.opts.log?.error({ err, session: s.id }, 'session journal append failed');
    }
    const stored = await this.write(s);
    if (!stored && !journaled) {
      if (this.pending.get(s.id) === s) this.pending.delete(s.id);
      throw new Error(`session ${s.id} could be written neither to the store nor to the journal`);
    }
  }

  async get(id: string): Promise<StoredSession | null> {
    return this.pending.get(id) ?? this.store.sessions.get(id);
  }

  async listByKey(keyId: string, limit: number): Promise<StoredSession[]> {
    const waiting = [...this.pending.values()].filter((s) => s.key_id === keyId);
    const stored = await this.store.sessions.listByKey(keyId, limit);
    if (waiting.length === 0) return stored;
    const byId = new Map(stored.map((s) => [s.id, s]));
    for (const s of waiting) byId.set(s.id, s);
    return [...byId.values()]
      .sort((a, b) =>
        a.started_at === b.started_at ? b.id.localeCompare(a.id) : b.started_at.localeCompare(a.started_at),
      )
      .slice(0, Math.max(0, Math.floor(limit)));
  }

  async listOpen(nodeId: string): Promise<StoredSession[]> {
    const byId = new Map((await this.store.sessions.listOpen(nodeId)).map((s) => [s.id, s]));
    for (const s of this.pending.values()) {
      if (s.node_id !== nodeId) continue;
      if (s.state === 'open') byId.set(s.id, s);
      else byId.delete(s.id);
    }
    return [...byId.values()];
  }

  renewLeases(ids: readonly string[], until: string): Promise<void> {
    return this.store.sessions.renewLeases(ids, until);
  }

  /** What the store lists, less the sessions whose final record waits here (they ended; the store lags). */
  async listExpired(now: string, limit: number): Promise<StoredSession[]> {
    const listed = await this.store.sessions.listExpired(now, limit);
    return listed.filter((s) => this.pending.get(s.id)?.state !== 'ended');
  }

  async closeExpired(closed: StoredSession, now: string): Promise<boolean> {
    if (this.pending.get(closed.id)?.state === 'ended') return false;
    return this.store.sessions.closeExpired(closed, now);
  }

  /**
   * Removes the record from the store and from the journal, after any write of it still in flight (so no
   * older write lands after the delete), and compacts the journal so a crash cannot replay it back.
   */
  async delete(id: string): Promise<boolean> {
    await this.chains.get(id)?.catch(() => undefined);
    const waited = this.pending.delete(id);
    if (waited) await this.compact();
    const stored = await this.store.sessions.delete(id);
    return stored || waited;
  }

  purgeEnded(before: string): Promise<number> {
    return this.store.sessions.purgeEnded(before);
  }

  /**
   * Writes every waiting record if the store answers, then compacts the journal.
   * Returns how many were written (0 when the store is still away). Overlapping calls share one run.
   */
  replay(): Promise<number> {
    this.replaying ??= this.replayOnce().finally(() => (this.replaying = undefined));
    return this.replaying;
  }

  /** Retries waiting records on a timer until `stop`. */
  start(): void {
    if (this.loop) return;
    this.loop = interval(this.opts.replayEveryMs ?? 5000, this.opts.scheduler).subscribe(() => {
      if (this.pending.size > 0) void this.replay();
      else if (this.stored > 0) void this.compact();
    });
  }

  /** Stops the timer; what still waits stays in the journal for the next run. */
  stop(): void {
    this.loop?.unsubscribe();
    this.loop = undefined;
  }

  /** Stops the timer and leaves the journal holding only what still waits (a clean shutdown). */
  async close(): Promise<void> {
    this.stop();
    // Writes still in flight keep their records in `pending`, so the compacted journal still holds them.
    if (this.stored > 0) await this.compact();
    await this.journal.close();
  }

  private async replayOnce(): Promise<number> {
    if (this.pending.size === 0) return 0;
    try {
      await this.store.ping();
    } catch {
      return 0;
    }
    let written = 0;
    for (const s of [...this.pending.values()]) {
      if (await this.write(s)) written++;
    }
    if (written > 0) {
      this.opts.log?.info({ sessions: written, waiting: this.pending.size }, 'session journal replayed');
      await this.compact();
    }
    return written;
  }

  /** Writes one record to the store; true when it landed. Never throws: a failed write waits in the journal. */
  private write(s: StoredSession): Promise<boolean> {
    const prev = this.chains.get(s.id) ?? Promise.resolve();
    const run = prev.then(async () => {
      // A newer version was put meanwhile: it carries everything this one did.
      if (this.pending.get(s.id) !== s) return false;
      try {
        await this.store.sessions.put(s);
      } catch (err) {
        this.opts.log?.warn({ err, session: s.id }, 'session write failed; kept in the journal');
        return false;
      }
      if (this.pending.get(s.id) === s) {
        this.pending.delete(s.id);
        if (++this.stored >= COMPACT_AFTER) void this.compact();
      }
      return true;
    });
    this.chains.set(s.id, run);
    void run.finally(() => {
      if (this.chains.get(s.id) === run) this.chains.delete(s.id);
    });
    return run;
  }

  /**
   * Keeps only what still waits; an empty journal means the store holds everything. A compaction asked
   * for while another is queued and not yet started joins it: it reads `pending` when it runs, so it serves
   * both, and concurrent puts cost one rewrite rather than one each.
   */
  private compact(): Promise<void> {
    this.compaction ??= this.journal
      .rewrite(() => {
        this.compaction = null;
        this.stored = 0;
        return [...this.pending.values()];
      })
      .catch((err: unknown) => {
        // The journal only ever holds more than needed; replaying a stored record again is harmless.
        this.opts.log?.warn({ err }, 'session journal compaction failed');
      });
    return this.compaction;
  }
}

/** The store with its session writes going through the journal. Closing it stops the replay loop. */
export function journaledStore(store: Store, sessions: JournaledSessions): Store {
  return {
    kind: store.kind,
    keys: store.keys,
    sessions,
    complaints: store.complaints,
    domains: store.domains,
    ping: () => store.ping(),
    async close() {
      await sessions.close();
      await store.close();
    },
  };
}

/**
 * Boot-time recovery for one node: replays what the journal kept from the last run, ends the sessions the
 * node left open (it was killed mid-call), and starts the replay loop. A store that is down at boot only
 * delays the orphan closing to the next boot; it never stops the node from starting.
 *
 * `journal: false` (the embedded store) puts no journal in front of the store: the store is then a file on
 * this machine's disk, written in the same turn, and a journal beside it doubled every session write (an
 * fsync'd append, then the row) to guard only session records, not the debits and complaints committed
 * beside them, against a power cut. A journal an earlier run left is still replayed, and removed once the
 * store holds all of it (else kept for the next boot).
 */
export async function recoverSessions(
  store: Store,
  opts: JournalOptions & { journal?: boolean },
  now: Date = new Date(),
): Promise<Store> {
  if (opts.journal === false) {
    await replayLeftJournal(store, opts);
    await endOrphans(store, opts, now);
    return store;
  }
  const sessions = await JournaledSessions.open(store, opts);
  await endOrphans({ sessions }, opts, now);
  sessions.start();
  return journaledStore(store, sessions);
}

async function replayLeftJournal(store: Store, opts: JournalOptions): Promise<void> {
  const file = journalPath(opts.dataDir, opts.nodeId);
  if (!(await fs.stat(file).catch(() => null))) return;
  const left = await JournaledSessions.open(store, opts);
  await left.close();
  if (left.waiting === 0) await fs.rm(file, { force: true });
}

async function endOrphans(store: { sessions: SessionsPort }, opts: JournalOptions, now: Date): Promise<void> {
  try {
    const closed = await closeOrphans(store, opts.nodeId, now);
    if (closed.length > 0) opts.log?.warn({ sessions: closed.length }, 'ended sessions left open by a previous run');
  } catch (err) {
    opts.log?.warn({ err }, 'could not close sessions left open by a previous run');
  }
}
