import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { VirtualTimeScheduler } from 'rxjs';
import { createEmbeddedStore, type EmbeddedStore } from '../../../src/store/embedded/index.js';
import { COMPACT_AFTER, JournaledSessions, journalPath, recoverSessions } from '../../../src/store/journal.js';
import type { Store } from '../../../src/store/types.js';
import { aSession } from '../../contract/records.js';
import { flaky } from './flaky-store.js';

const NODE = 'node-1:8080';

/** Waits (in real time, briefly) for async file and store work to finish. */
async function until(cond: () => Promise<boolean> | boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('session journal', function () {
  let dir: string;
  let real: EmbeddedStore;
  let store: Store;
  let outage: { down: boolean; puts: number };
  const journalLines = (): string[] =>
    fs.existsSync(journalPath(dir, NODE))
      ? fs.readFileSync(journalPath(dir, NODE), 'utf8').split('\n').filter(Boolean)
      : [];

  beforeEach(function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-journal-'));
    real = createEmbeddedStore(path.join(dir, 'voice.db'));
    ({ store, outage } = flaky(real));
  });
  afterEach(async function () {
    await real.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes through to the store; the journal is compacted lazily, on its timer and on close', async function () {
    const scheduler = new VirtualTimeScheduler();
    const j = await JournaledSessions.open(store, { dataDir: dir, nodeId: NODE, replayEveryMs: 5000, scheduler });
    j.start();
    const s = aSession('k');
    await j.put(s);
    expect(await real.sessions.get(s.id)).to.deep.equal(s);
    expect(j.waiting).to.equal(0);
    // Stored, so no longer needed in the journal, but not compacted on the write path.
    expect(journalLines().map((l) => JSON.parse(l))).to.deep.equal([s]);
    scheduler.maxFrames = 5000;
    scheduler.flush(); // the replay timer: nothing waits, so it compacts
    await until(() => journalLines().length === 0);

    const t = aSession('k');
    await j.put(t);
    expect(journalLines()).to.have.length(1);
    await j.close();
    expect(journalLines()).to.deep.equal([]);
  });

  it('compacts without the timer once COMPACT_AFTER stored records have piled up', async function () {
    const j = await JournaledSessions.open(store, { dataDir: dir, nodeId: NODE });
    const records = Array.from({ length: COMPACT_AFTER }, () => aSession('k'));
    await Promise.all(records.slice(0, -1).map((r) => j.put(r)));
    expect(journalLines().length).to.equal(COMPACT_AFTER - 1);
    await j.put(records.at(-1)!);
    await until(() => journalLines().length === 0);
  });

  it('a record still waiting survives a compaction and a close', async function () {
    const j = await JournaledSessions.open(store, { dataDir: dir, nodeId: NODE });
    const stored = aSession('k');
    await j.put(stored);
    outage.down = true;
    const waiting = aSession('k');
    await j.put(waiting);
    await j.close();
    expect(journalLines().map((l) => JSON.parse(l))).to.deep.equal([waiting]);
  });

  it('keeps a record the store refused, and replays it once the store is back', async function () {
    const j = await JournaledSessions.open(store, { dataDir: dir, nodeId: NODE });
    const s = aSession('k');
    outage.down = true;
    await j.put(s); // resolves: the record is safe in the journal
    expect(await real.sessions.get(s.id)).to.equal(null);
    expect(journalLines().map((l) => JSON.parse(l))).to.deep.equal([s]);
    expect(await j.get(s.id)).to.deep.equal(s);
    expect((await j.listByKey('k', 10)).map((x) => x.id)).to.deep.equal([s.id]);

    expect(await j.replay()).to.equal(0); // still down
    expect(j.waiting).to.equal(1);

    outage.down = false;
    expect(await j.replay()).to.equal(1);
    expect(await real.sessions.get(s.id)).to.deep.equal(s);
    expect(j.waiting).to.equal(0);
    expect(journalLines()).to.deep.equal([]);
  });

  it('replays only the newest version of a session', async function () {
    const j = await JournaledSessions.open(store, { dataDir: dir, nodeId: NODE });
    const open = aSession('k');
    const ended = { ...open, state: 'ended' as const, ended_at: '2026-01-01T10:02:00.000Z', duration_seconds: 120 };
    outage.down = true;
    await j.put(open);
    await j.put(ended);
    outage.down = false;
    outage.puts = 0;
    expect(await j.replay()).to.equal(1);
    expect(outage.puts).to.equal(1);
    expect(await real.sessions.get(open.id)).to.deep.equal(ended);
  });

  it('replays what a previous run left behind when it opens, ignoring a torn last line', async function () {
    const first = await JournaledSessions.open(store, { dataDir: dir, nodeId: NODE });
    const a = aSession('k');
    const b = aSession('k');
    outage.down = true;
    await first.put(a);
    await first.put(b);
    // The process dies mid-append: half a line at the end of the file.
    fs.appendFileSync(journalPath(dir, NODE), '{"id":"torn","kind":"fil');

    // The next run starts while the store is still down and journals one more record.
    const second = await JournaledSessions.open(store, { dataDir: dir, nodeId: NODE });
    expect(second.waiting).to.equal(2);
    const c = aSession('k');
    await second.put(c);

    outage.down = false;
    const third = await JournaledSessions.open(store, { dataDir: dir, nodeId: NODE });
    expect(third.waiting).to.equal(0);
    for (const s of [a, b, c]) expect(await real.sessions.get(s.id)).to.deep.equal(s);
    expect(await real.sessions.get('torn')).to.equal(null);
    expect(journalLines()).to.deep.equal([]);
  });

  it('the replay loop retries on its timer until the store is back', async function () {
    const scheduler = new VirtualTimeScheduler();
    const j = await JournaledSessions.open(store, { dataDir: dir, nodeId: NODE, replayEveryMs: 5000, scheduler });
    const s = aSession('k');
    outage.down = true;
    await j.put(s);
    j.start();

    scheduler.maxFrames = 5000;
    scheduler.flush(); // first tick: store still down
    await until(() => outage.puts === 1);
    outage.down = false;

    scheduler.maxFrames = 9999;
    scheduler.flush(); // no tick yet
    await new Promise((r) => setTimeout(r, 20));
    expect(await real.sessions.get(s.id)).to.equal(null);

    scheduler.maxFrames = 10000;
    scheduler.flush(); // second tick: store is back
    await until(async () => (await real.sessions.get(s.id)) !== null && j.waiting === 0);
    await until(() => journalLines().length === 0);
    j.stop();
  });

  it('rejects a put only when neither the journal nor the store took it', async function () {
    const journalDir = path.join(dir, 'journal');
    const j = await JournaledSessions.open(store, { dataDir: journalDir, nodeId: NODE });
    fs.rmSync(journalDir, { recursive: true }); // the journal's disk goes away
    const stored = aSession('k');
    await j.put(stored); // journal fails, store takes it
    expect(await real.sessions.get(stored.id)).to.deep.equal(stored);

    outage.down = true;
    let failed = false;
    await j.put(aSession('k')).catch(() => (failed = true));
    expect(failed).to.equal(true);
    expect(j.waiting).to.equal(0);
  });
});

describe('closing orphaned sessions', function () {
  let dir: string;
  let real: EmbeddedStore;
  beforeEach(function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-orphans-'));
    real = createEmbeddedStore(path.join(dir, 'voice.db'));
  });
  afterEach(async function () {
    await real.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('ends this node’s open sessions, keeping what was recorded', async function () {
    const { closeOrphans } = await import('../../../src/store/journal.js');
    const mine = aSession('k', { node_id: NODE, started_at: '2026-01-01T10:00:00.000Z' });
    const timed = aSession('k', {
      node_id: NODE,
      started_at: '2026-01-01T10:00:00.000Z',
      ended_at: '2026-01-01T10:01:30.000Z',
    });
    const other = aSession('k', { node_id: 'node-2:8080' });
    const done = aSession('k', {
      node_id: NODE,
      state: 'ended',
      ended_at: '2026-01-01T10:00:10.000Z',
      duration_seconds: 10,
    });
    for (const s of [mine, timed, other, done]) await real.sessions.put(s);

    const closed = await closeOrphans(real, NODE, new Date('2026-01-01T10:05:00.000Z'));
    expect(closed.map((s) => s.id)).to.have.members([mine.id, timed.id]);

    expect(await real.sessions.get(mine.id)).to.deep.equal({
      ...mine,
      state: 'ended',
      ended_at: '2026-01-01T10:05:00.000Z',
      duration_seconds: 300,
    });
    expect(await real.sessions.get(timed.id)).to.deep.include({
      state: 'ended',
      ended_at: timed.ended_at,
      duration_seconds: 90,
    });
    expect(await real.sessions.get(other.id)).to.deep.equal(other);
    expect(await real.sessions.get(done.id)).to.deep.equal(done);
    expect(await real.sessions.listOpen(NODE)).to.deep.equal([]);
  });

  it('at boot, replays the journal before closing orphans, so a journaled final record wins', async function () {
    const { store, outage } = flaky(real);
    const first = await JournaledSessions.open(store, { dataDir: dir, nodeId: NODE });
    const open = aSession('k', { node_id: NODE, started_at: '2026-01-01T10:00:00.000Z' });
    const orphan = aSession('k', { node_id: NODE, started_at: '2026-01-01T10:00:00.000Z' });
    await first.put(open);
    await first.put(orphan);
    outage.down = true;
    const final = {
      ...open,
      state: 'ended' as const,
      ended_at: '2026-01-01T10:02:00.000Z',
      duration_seconds: 120,
      reported: true,
    };
    await first.put(final); // the store is down when the call ends; then the node is killed

    outage.down = false;
    const booted = await recoverSessions(store, { dataDir: dir, nodeId: NODE }, new Date('2026-01-01T11:00:00.000Z'));
    try {
      expect(await real.sessions.get(open.id)).to.deep.equal(final);
      expect(await real.sessions.get(orphan.id)).to.deep.include({ state: 'ended', duration_seconds: 3600 });
    } finally {
      await booted.close();
    }
  });

  it('with no journal (the embedded store), writes go straight to the store; a left journal is replayed, then removed', async function () {
    const { store, outage } = flaky(real);
    const first = await JournaledSessions.open(store, { dataDir: dir, nodeId: NODE });
    const open = aSession('k', { node_id: NODE, started_at: '2026-01-01T10:00:00.000Z' });
    await first.put(open);
    outage.down = true;
    const final = { ...open, state: 'ended' as const, ended_at: '2026-01-01T10:02:00.000Z', duration_seconds: 120 };
    await first.put(final); // waits in the journal only: then the node is killed and upgraded
    const orphan = aSession('k', { node_id: NODE, started_at: '2026-01-01T10:30:00.000Z' });
    await real.sessions.put(orphan);
    outage.down = false;

    const booted = await recoverSessions(
      store,
      { dataDir: dir, nodeId: NODE, journal: false },
      new Date('2026-01-01T11:00:00.000Z'),
    );
    expect(booted).to.equal(store);
    expect(await real.sessions.get(open.id)).to.deep.equal(final);
    expect(await real.sessions.get(orphan.id)).to.deep.include({ state: 'ended', duration_seconds: 1800 });
    expect(fs.existsSync(journalPath(dir, NODE))).to.equal(false);

    const later = aSession('k');
    await booted.sessions.put(later);
    expect(await real.sessions.get(later.id)).to.deep.equal(later);
    expect(fs.existsSync(journalPath(dir, NODE))).to.equal(false);
  });

  it('with no journal, keeps a left journal whose records the store still refuses', async function () {
    const { store, outage } = flaky(real);
    const journalLines = (): string[] => fs.readFileSync(journalPath(dir, NODE), 'utf8').split('\n').filter(Boolean);
    const first = await JournaledSessions.open(store, { dataDir: dir, nodeId: NODE });
    outage.down = true;
    const s = aSession('k', { node_id: NODE, state: 'ended' as const });
    await first.put(s);
    await recoverSessions(store, { dataDir: dir, nodeId: NODE, journal: false });
    expect(journalLines().map((l) => JSON.parse(l))).to.deep.equal([s]);
  });
});
