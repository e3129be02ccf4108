import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { openDb, type Db } from '../../../src/store/embedded/db.js';
import { groupCommit } from '../../../src/store/embedded/group-commit.js';

describe('group commit (embedded store writes)', function () {
  let dir: string;
  let db: Db;
  /** A second connection: its data_version moves once per transaction another connection commits. */
  let observer: Database.Database;
  const commitsSeen = (): number => observer.pragma('data_version', { simple: true }) as number;

  beforeEach(function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-gc-'));
    db = openDb(path.join(dir, 'voice.db'));
    db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY)');
    observer = new Database(path.join(dir, 'voice.db'));
  });
  afterEach(function () {
    observer.close();
    if (db.open) db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('commits the writes of one event-loop turn in one transaction, each resolving with its result', async function () {
    const batch = groupCommit(db);
    const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
    const before = commitsSeen();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => batch.run(() => insert.run(i).changes)));
    expect(results).to.deep.equal(Array(50).fill(1));
    expect(commitsSeen() - before).to.equal(1);
    expect(observer.prepare('SELECT count(*) AS c FROM t').get()).to.deep.equal({ c: 50 });
  });

  it('rolls back and rejects only the write that failed; the others commit', async function () {
    const batch = groupCommit(db);
    const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
    const settled = await Promise.allSettled([
      batch.run(() => insert.run(1)),
      batch.run(() => {
        insert.run(2);
        insert.run(1); // duplicate key: this write's own insert of 2 must go too
      }),
      batch.run(() => insert.run(3)),
    ]);
    expect(settled.map((s) => s.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
    expect(db.prepare('SELECT n FROM t ORDER BY n').all()).to.deep.equal([{ n: 1 }, { n: 3 }]);
  });

  it('does not resolve a write before its transaction commits', async function () {
    const batch = groupCommit(db);
    let done = false;
    const p = batch.run(() => db.prepare('INSERT INTO t (n) VALUES (7)').run()).then(() => (done = true));
    await Promise.resolve();
    expect(done).to.equal(false);
    expect(observer.prepare('SELECT count(*) AS c FROM t').get()).to.deep.equal({ c: 0 });
    await p;
    expect(observer.prepare('SELECT count(*) AS c FROM t').get()).to.deep.equal({ c: 1 });
  });

  it('flush commits what is queued at once, before the database closes', async function () {
    const batch = groupCommit(db);
    const p = batch.run(() => db.prepare('INSERT INTO t (n) VALUES (9)').run());
    batch.flush();
    db.close();
    await p;
    expect(observer.prepare('SELECT n FROM t').all()).to.deep.equal([{ n: 9 }]);
  });

  it('rejects every write of a batch whose transaction cannot run', async function () {
    const batch = groupCommit(db);
    const runs = [1, 2].map((n) => batch.run(() => n));
    db.close();
    const settled = await Promise.allSettled(runs);
    expect(settled.map((s) => s.status)).to.deep.equal(['rejected', 'rejected']);
  });
});
