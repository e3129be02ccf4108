import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/**
 * An append-only file of JSON lines that survives a crash: every append is fsync'd before it resolves,
 * and a rewrite replaces the file atomically (temp file, fsync, rename). Operations run one at a time.
 * Appends that arrive while another operation runs are written together with one fsync (group commit):
 * under load the disk's sync latency, not the CPU, bounds how many appends a second go through.
 * The append handle stays open between batches (an open and a close per batch were a third of an append's
 * cost on the event loop); a rewrite replaces the file, so it closes the handle first.
 */
export class JournalFile<T> {
  private queue: Promise<unknown> = Promise.resolve();
  private handle: FileHandle | null = null;
  /** The append batch queued but not yet started, which later appends join. */
  private gathering: { lines: string[]; done: Promise<void> } | null = null;

  constructor(readonly file: string) {}

  /** Every complete line; a torn last line (a crash mid-append) is dropped. */
  async readAll(): Promise<T[]> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const out: T[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        out.push(JSON.parse(line) as T);
      } catch {
        // Only the line being written at a crash can be torn; nothing after it was acknowledged.
      }
    }
    return out;
  }

  /** Resolves once the record's line is on disk. */
  append(rec: T): Promise<void> {
    const line = `${JSON.stringify(rec)}\n`;
    if (this.gathering) {
      this.gathering.lines.push(line);
      return this.gathering.done;
    }
    const batch = { lines: [line], done: Promise.resolve() };
    this.gathering = batch;
    batch.done = this.serial(async () => {
      if (this.gathering === batch) this.gathering = null;
      this.handle ??= await fs.open(this.file, 'a');
      try {
        await this.handle.write(batch.lines.join(''));
        await this.handle.sync();
      } catch (err) {
        // A handle that failed once is not trusted again: the next batch reopens the file.
        await this.release();
        throw err;
      }
    });
    return batch.done;
  }

  /**
   * Replaces the whole file with what `recs()` returns when the rewrite runs, after every append queued
   * before it, so no acknowledged line is dropped by a stale snapshot.
   */
  rewrite(recs: () => readonly T[]): Promise<void> {
    // Appends after this call go in after the rewrite, never into a batch queued before it.
    this.gathering = null;
    return this.serial(async () => {
      await this.release();
      const lines = recs()
        .map((r) => `${JSON.stringify(r)}\n`)
        .join('');
      const tmp = `${this.file}.tmp`;
      const fh = await fs.open(tmp, 'w');
      try {
        await fh.write(lines);
        await fh.sync();
      } finally {
        await fh.close();
      }
      await fs.rename(tmp, this.file);
      await syncDir(path.dirname(this.file));
    });
  }

  /** Closes the append handle once every queued operation is done. */
  close(): Promise<void> {
    this.gathering = null;
    return this.serial(() => this.release());
  }

  private async release(): Promise<void> {
    const fh = this.handle;
    this.handle = null;
    await fh?.close().catch(() => undefined);
  }

  private serial<R>(op: () => Promise<R>): Promise<R> {
    const run = this.queue.then(op, op);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** Makes a rename durable: the directory entry itself must reach the disk. */
async function syncDir(dir: string): Promise<void> {
  const fh = await fs.open(dir, 'r');
  try {
    await fh.sync();
  } catch {
    // Some filesystems refuse fsync on a directory; the rename is still atomic there.
  } finally {
    await fh.close();
  }
}
