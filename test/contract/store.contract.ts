import { expect } from 'chai';
import type { Store } from '../../src/store/types.js';
import { aComplaint, aKey, aNumber, aSession } from './records.js';

/** A store server that can be made to fail one command at a time as a real server fails (the MongoDB stand-in). */
export interface FaultingServer {
  commands: string[];
  inject(
    command: string,
    fault: 'stepdown' | 'write-concern' | 'drop-before' | 'drop-after' | 'cursor-not-found',
  ): void;
}

/**
 * The behaviour every Store adapter must show. `makeStore` returns a fresh, open store; the suite closes it.
 * Records use random ids and numbers, so a shared database (MongoDB) does not need wiping between tests,
 * except for the feed, whose time window is chosen far from the other tests' timestamps.
 */
export function storeContract(name: string, makeStore: () => Promise<Store>, server?: FaultingServer): void {
  describe(`${name}: store contract`, function () {
    let store: Store;
    beforeEach(async function () {
      store = await makeStore();
    });
    afterEach(async function () {
      await store.close();
    });

    describe('keys', function () {
      it('creates a key and finds it by hash', async function () {
        const k = aKey(25, { label: 'acme' });
        await store.keys.create(k);
        expect(await store.keys.findByHash(k.hash)).to.deep.equal(k);
        expect(await store.keys.findByHash('no-such-hash')).to.equal(null);
      });

      it('keeps an expiry, records revocation (the first one) and last use', async function () {
        const k = { ...aKey(7), expires_at: '2027-01-01T00:00:00.000Z' };
        await store.keys.create(k);
        expect(await store.keys.findByHash(k.hash)).to.deep.equal(k);
        await store.keys.touch(k.id, '2026-11-24T10:00:00.000Z');
        expect(await store.keys.revoke(k.id, '2026-11-24T11:00:00.000Z')).to.equal(true);
        expect(await store.keys.revoke(k.id, '2026-11-24T12:00:00.000Z')).to.equal(true);
        expect(await store.keys.findByHash(k.hash)).to.deep.equal({
          ...k,
          last_used_at: '2026-11-24T10:00:00.000Z',
          revoked_at: '2026-11-24T11:00:00.000Z',
        });
        expect(await store.keys.revoke('no-such-key', '2026-11-24T11:00:00.000Z')).to.equal(false);
        const listed = (await store.keys.list()).find((r) => r.id === k.id);
        expect(listed).to.include({ revoked_at: '2026-11-24T11:00:00.000Z', expires_at: k.expires_at });
      });

      it('lists created keys', async function () {
        const a = aKey(1);
        const b = aKey(2);
        await store.keys.create(a);
        await store.keys.create(b);
        const ids = (await store.keys.list()).map((k) => k.id);
        expect(ids).to.include.members([a.id, b.id]);
      });

      it('refuses a second key with the same hash', async function () {
        const k = aKey(1);
        await store.keys.create(k);
        let failed = false;
        await store.keys.create({ ...aKey(1), hash: k.hash }).catch(() => (failed = true));
        expect(failed).to.equal(true);
      });

      it('credits add to the balance and return it; negative credits stop at zero', async function () {
        const k = aKey(10);
        await store.keys.create(k);
        expect(await store.keys.credit(k.id, 5)).to.equal(15);
        expect(await store.keys.balance(k.id)).to.equal(15);
        expect(await store.keys.credit(k.id, -4)).to.equal(11);
        expect(await store.keys.credit(k.id, -100)).to.equal(0);
        expect(await store.keys.balance(k.id)).to.equal(0);
      });

      it('crediting an unknown key fails', async function () {
        let failed = false;
        await store.keys.credit('no-such-key', 5).catch(() => (failed = true));
        expect(failed).to.equal(true);
      });

      it('debits take credits while the balance allows, and never below zero', async function () {
        const k = aKey(10);
        await store.keys.create(k);
        expect(await store.keys.debit(k.id, 4)).to.equal(true);
        expect(await store.keys.balance(k.id)).to.equal(6);
        expect(await store.keys.debit(k.id, 7)).to.equal(false);
        expect(await store.keys.balance(k.id)).to.equal(6);
        expect(await store.keys.debit(k.id, 6)).to.equal(true);
        expect(await store.keys.balance(k.id)).to.equal(0);
        expect(await store.keys.debit(k.id, 1)).to.equal(false);
        expect(await store.keys.balance(k.id)).to.equal(0);
      });

      it('debiting an unknown key takes nothing and reports false', async function () {
        expect(await store.keys.debit('no-such-key', 1)).to.equal(false);
        expect(await store.keys.balance('no-such-key')).to.equal(0);
      });

      it('rejects a negative debit instead of adding credits', async function () {
        const k = aKey(5);
        await store.keys.create(k);
        let failed = false;
        await store.keys.debit(k.id, -3).catch(() => (failed = true));
        expect(failed).to.equal(true);
        expect(await store.keys.balance(k.id)).to.equal(5);
      });

      it('concurrent debits succeed exactly as often as the balance allows', async function () {
        const k = aKey(100);
        await store.keys.create(k);
        const results = await Promise.all(Array.from({ length: 60 }, () => store.keys.debit(k.id, 7)));
        const wins = results.filter(Boolean).length;
        expect(wins).to.equal(14); // 14 × 7 = 98 ≤ 100 < 15 × 7
        expect(await store.keys.balance(k.id)).to.equal(100 - wins * 7);
      });
    });

    describe('sessions', function () {
      it('deletes one record, and purges ended sessions started before a time, keeping open ones', async function () {
        const key = `key-purge-${Math.random()}`;
        const ended = { state: 'ended' as const };
        const old = aSession(key, { ...ended, started_at: '2026-01-01T00:00:00.000Z' });
        const oldOpen = aSession(key, { started_at: '2026-01-01T00:00:01.000Z' });
        const recent = aSession(key, { ...ended, started_at: '2026-11-01T00:00:00.000Z' });
        const gone = aSession(key, { ...ended, started_at: '2026-11-02T00:00:00.000Z' });
        for (const s of [old, oldOpen, recent, gone]) await store.sessions.put(s);
        expect(await store.sessions.delete(gone.id)).to.equal(true);
        expect(await store.sessions.delete(gone.id)).to.equal(false);
        expect(await store.sessions.get(gone.id)).to.equal(null);
        expect(await store.sessions.purgeEnded('2026-06-01T00:00:00.000Z')).to.be.at.least(1);
        const left = (await store.sessions.listByKey(key, 10)).map((s) => s.id);
        expect(left.sort()).to.deep.equal([oldOpen.id, recent.id].sort());
      });

      it('stores the whole record and reads it back', async function () {
        const s = aSession('key-a');
        await store.sessions.put(s);
        expect(await store.sessions.get(s.id)).to.deep.equal(s);
        expect(await store.sessions.get('no-such-session')).to.equal(null);
      });

      it('leaves an optional field that is undefined out of the record', async function () {
        const s = aSession('key-a');
        await store.sessions.put({ ...s, summary: undefined, call_id: undefined });
        const { summary: _s, ...withoutSummary } = s;
        expect(await store.sessions.get(s.id)).to.deep.equal(withoutSummary);
      });

      it('put replaces a record with the same id', async function () {
        const s = aSession('key-a');
        await store.sessions.put(s);
        const ended = {
          ...s,
          state: 'ended' as const,
          ended_at: '2026-01-01T10:03:00.000Z',
          duration_seconds: 180,
          reported: true,
          reported_numbers: 2,
        };
        await store.sessions.put(ended);
        expect(await store.sessions.get(s.id)).to.deep.equal(ended);
      });

      it('lists a key’s sessions newest first, up to the limit, and no other key’s', async function () {
        const keyId = `key-${Math.random()}`;
        const times = [
          '2026-01-03T00:00:00.000Z',
          '2026-01-01T00:00:00.000Z',
          '2026-01-04T00:00:00.000Z',
          '2026-01-02T00:00:00.000Z',
        ];
        for (const started_at of times) await store.sessions.put(aSession(keyId, { started_at }));
        await store.sessions.put(aSession(`other-${Math.random()}`, { started_at: '2026-01-05T00:00:00.000Z' }));

        const all = await store.sessions.listByKey(keyId, 10);
        expect(all.map((s) => s.started_at)).to.deep.equal([...times].sort().reverse());
        expect(all.every((s) => s.key_id === keyId)).to.equal(true);
        const two = await store.sessions.listByKey(keyId, 2);
        expect(two.map((s) => s.started_at)).to.deep.equal(['2026-01-04T00:00:00.000Z', '2026-01-03T00:00:00.000Z']);
      });

      it('lists the sessions a node left open, and only those', async function () {
        const node = `node-${Math.random()}`;
        const open1 = aSession('k', { node_id: node });
        const open2 = aSession('k', { node_id: node, started_at: '2026-01-01T11:00:00.000Z' });
        await store.sessions.put(open1);
        await store.sessions.put(open2);
        await store.sessions.put(aSession('k', { node_id: node, state: 'ended' }));
        await store.sessions.put(aSession('k', { node_id: `${node}-other` }));
        const ids = (await store.sessions.listOpen(node)).map((s) => s.id);
        expect(ids).to.have.members([open1.id, open2.id]);
      });
    });

    describe('session leases', function () {
      // Leases in a window of their own, before every other test's, so a shared database's rows stay out of it.
      const window = (): ((s: number) => string) => {
        const year = 1900 + Math.floor(Math.random() * 90);
        return (sec) => `${year}-06-01T00:00:${String(sec).padStart(2, '0')}.000Z`;
      };
      const mine = (list: Array<{ id: string }>, ids: string[]): string[] =>
        list.map((s) => s.id).filter((id) => ids.includes(id));

      it('lists open sessions whose lease ran out, oldest lease first, and no ended or unleased one', async function () {
        const at = window();
        const late = aSession('k', { lease_until: at(20) });
        const early = aSession('k', { lease_until: at(10) });
        const current = aSession('k', { lease_until: at(40) });
        const ended = aSession('k', { lease_until: at(5), state: 'ended' });
        const unleased = aSession('k');
        for (const s of [late, early, current, ended, unleased]) await store.sessions.put(s);
        const ids = [late, early, current, ended, unleased].map((s) => s.id);
        expect(mine(await store.sessions.listExpired(at(30), 1000), ids)).to.deep.equal([early.id, late.id]);
        const expired = (await store.sessions.listExpired(at(30), 1000)).find((s) => s.id === early.id);
        expect(expired).to.deep.equal(early);
      });

      it('renews only the leases of sessions still open', async function () {
        const at = window();
        const open = aSession('k', { lease_until: at(10) });
        const ended = aSession('k', { lease_until: at(10), state: 'ended' });
        await store.sessions.put(open);
        await store.sessions.put(ended);
        await store.sessions.renewLeases([open.id, ended.id, 'no-such-session'], at(50));
        expect((await store.sessions.get(open.id))?.lease_until).to.equal(at(50));
        expect(await store.sessions.get(ended.id)).to.deep.equal(ended);
        expect(mine(await store.sessions.listExpired(at(30), 1000), [open.id])).to.deep.equal([]);
        await store.sessions.renewLeases([], at(59));
      });

      it('closes an expired session once; one renewed or ended meanwhile keeps what its node wrote', async function () {
        const at = window();
        const orphan = aSession('k', { lease_until: at(10) });
        const renewed = aSession('k', { lease_until: at(10) });
        const finished = aSession('k', { lease_until: at(10) });
        for (const s of [orphan, renewed, finished]) await store.sessions.put(s);
        const { lease_until: _l, ...kept } = orphan;
        const closed = { ...kept, state: 'ended' as const, ended_at: at(30), summary: 'interrupted' };

        expect(await store.sessions.closeExpired(closed, at(30))).to.equal(true);
        expect(await store.sessions.get(orphan.id)).to.deep.equal(closed);
        // A second sweeper, after the first: nothing left to close.
        expect(await store.sessions.closeExpired({ ...closed, summary: 'again' }, at(31))).to.equal(false);
        expect(await store.sessions.get(orphan.id)).to.deep.equal(closed);

        await store.sessions.renewLeases([renewed.id], at(45));
        expect(await store.sessions.closeExpired({ ...renewed, state: 'ended' }, at(30))).to.equal(false);
        expect((await store.sessions.get(renewed.id))?.state).to.equal('open');

        const final = { ...finished, state: 'ended' as const, lease_until: undefined, ended_at: at(20) };
        await store.sessions.put(final);
        expect(await store.sessions.closeExpired({ ...finished, state: 'ended' }, at(30))).to.equal(false);
        expect((await store.sessions.get(finished.id))?.ended_at).to.equal(at(20));
        expect(
          mine(await store.sessions.listExpired(at(40), 1000), [orphan.id, renewed.id, finished.id]),
        ).to.deep.equal([]);
      });
    });

    describe('complaints', function () {
      it('files one complaint per number per session', async function () {
        const number = aNumber();
        const c = aComplaint(number);
        expect(await store.complaints.file(c)).to.equal(true);
        expect(await store.complaints.file({ ...aComplaint(number), session_id: c.session_id })).to.equal(false);
        expect(await store.complaints.file(aComplaint(number))).to.equal(true);
        expect((await store.complaints.status(number)).complaints).to.equal(2);
      });

      it('status aggregates count, distinct categories and first/last filing', async function () {
        const number = aNumber();
        await store.complaints.file(
          aComplaint(number, { subject: 'Tax Collection', filed_at: '2026-02-01T00:00:00.000Z' }),
        );
        await store.complaints.file(aComplaint(number, { subject: 'Romance', filed_at: '2026-02-03T00:00:00.000Z' }));
        await store.complaints.file(
          aComplaint(number, { subject: 'Tax Collection', filed_at: '2026-02-02T00:00:00.000Z' }),
        );
        await store.complaints.file(aComplaint(aNumber(), { subject: 'Utility' }));
        expect(await store.complaints.status(number)).to.deep.equal({
          number,
          reported: true,
          complaints: 3,
          categories: ['Tax Collection', 'Romance'],
          first_seen: '2026-02-01T00:00:00.000Z',
          last_seen: '2026-02-03T00:00:00.000Z',
        });
      });

      it('status of a number never filed says not reported', async function () {
        const number = aNumber();
        expect(await store.complaints.status(number)).to.deep.equal({
          number,
          reported: false,
          complaints: 0,
          categories: [],
        });
      });

      it('feed lists numbers last filed after `since`, oldest first, up to the limit', async function () {
        // A window in the future of every other test's timestamps.
        const base = `2099-${String(1 + Math.floor(Math.random() * 12)).padStart(2, '0')}`;
        const old = aNumber();
        const a = aNumber();
        const b = aNumber();
        const c = aNumber();
        await store.complaints.file(aComplaint(old, { filed_at: `${base}-01T00:00:00.000Z` }));
        await store.complaints.file(aComplaint(a, { filed_at: `${base}-01T00:00:00.000Z` }));
        await store.complaints.file(aComplaint(a, { filed_at: `${base}-05T00:00:00.000Z`, subject: 'Romance' }));
        await store.complaints.file(aComplaint(b, { filed_at: `${base}-03T00:00:00.000Z` }));
        await store.complaints.file(aComplaint(c, { filed_at: `${base}-07T00:00:00.000Z` }));

        const feed = await store.complaints.feed(`${base}-02T00:00:00.000Z`, 10);
        const mine = feed.filter((s) => [old, a, b, c].includes(s.number));
        expect(mine.map((s) => s.number)).to.deep.equal([b, a, c]);
        // Entries carry the whole status, including complaints filed before `since`.
        expect(mine[1]).to.deep.include({ complaints: 2, categories: ['Tax Collection', 'Romance'], reported: true });

        const limited = await store.complaints.feed(`${base}-02T00:00:00.000Z`, 1);
        expect(limited).to.have.length(1);
      });
    });

    describe('domains', function () {
      it('puts, gets and replaces a domain', async function () {
        const id = `dom-${Math.random()}`;
        const d = { id, key_id: 'k', spam_action: 'decline' as const, updated_at: '2026-01-01T00:00:00.000Z' };
        await store.domains.put(d);
        expect(await store.domains.get(id)).to.deep.equal(d);
        const d2 = {
          ...d,
          spam_action: 'honeypot' as const,
          persona: 'grandma',
          updated_at: '2026-01-02T00:00:00.000Z',
        };
        await store.domains.put(d2);
        expect(await store.domains.get(id)).to.deep.equal(d2);
        expect(await store.domains.get('no-such-domain')).to.equal(null);
      });
    });

    it('answers ping', async function () {
      await store.ping();
    });

    if (server) faultCases(() => store, server);
  });
}

/** What the adapter does with the server's failures, each injected as the real server answers it. */
function faultCases(current: () => Store, server: FaultingServer): void {
  describe('server faults', function () {
    const count = (name: string) => server.commands.filter((c) => c === name).length;

    it('a duplicate key is E11000 with the index pattern and values; a second complaint is not filed', async function () {
      const store = current();
      const k = aKey(1);
      await store.keys.create(k);
      const err = (await store.keys.create({ ...aKey(1), hash: k.hash }).catch((e: unknown) => e)) as Record<
        string,
        unknown
      >;
      expect(err).to.include({ code: 11000 });
      expect(err.keyPattern).to.deep.equal({ hash: 1 });
      expect(err.keyValue).to.deep.equal({ hash: k.hash });
      const c = aComplaint(aNumber());
      expect(await store.complaints.file(c)).to.equal(true);
      expect(await store.complaints.file({ ...c, id: `${c.id}-again` })).to.equal(false);
    });

    it('a session write during a primary step-down (NotWritablePrimary, RetryableWriteError) lands once', async function () {
      const store = current();
      const s = aSession('k');
      const before = count('update');
      server.inject('update', 'stepdown');
      await store.sessions.put(s);
      expect(count('update') - before).to.equal(2); // refused, then retried once
      expect(await store.sessions.get(s.id)).to.deep.equal(s);
    });

    it('a debit during a step-down is charged once', async function () {
      const store = current();
      const k = aKey(10);
      await store.keys.create(k);
      server.inject('findAndModify', 'stepdown');
      expect(await store.keys.debit(k.id, 4)).to.equal(true);
      expect(await store.keys.balance(k.id)).to.equal(6);
    });

    it('a debit whose reply is lost with the connection is retried and charged exactly once', async function () {
      const store = current();
      const k = aKey(10);
      await store.keys.create(k);
      const before = count('findAndModify');
      server.inject('findAndModify', 'drop-after'); // the server ran it; the answer never came
      expect(await store.keys.debit(k.id, 4)).to.equal(true);
      expect(count('findAndModify') - before).to.equal(2);
      expect(await store.keys.balance(k.id)).to.equal(6);
    });

    it('a write whose connection closes mid-command, before it ran, is retried and lands', async function () {
      const store = current();
      const s = aSession('k');
      server.inject('update', 'drop-before');
      await store.sessions.put(s);
      expect(await store.sessions.get(s.id)).to.deep.equal(s);
    });

    it('a write-concern error fails the write although the primary applied it; writing it again succeeds', async function () {
      const store = current();
      const s = aSession('k');
      server.inject('update', 'write-concern');
      const err = (await store.sessions.put(s).catch((e: unknown) => e)) as Record<string, unknown> | undefined;
      // Never taken as success: the journal keeps the record and replays it (the write is idempotent).
      expect(err).to.include({ code: 64 });
      expect(await store.sessions.get(s.id)).to.deep.equal(s);
      await store.sessions.put({ ...s, state: 'ended' });
      expect((await store.sessions.get(s.id))?.state).to.equal('ended');
    });

    it('a cursor the server lost between batches (CursorNotFound) is read again from the start', async function () {
      const store = current();
      const keyId = `key-${Math.random()}`;
      const started = (i: number) =>
        `2026-03-01T00:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000Z`;
      for (let i = 0; i < 150; i++) await store.sessions.put(aSession(keyId, { started_at: started(i) }));
      const before = count('getMore');
      server.inject('getMore', 'cursor-not-found');
      const all = await store.sessions.listByKey(keyId, 200);
      expect(count('getMore') - before).to.equal(2); // the lost one, then the re-read's
      expect(all).to.have.length(150);
      expect(all[0]!.started_at).to.equal(started(149));
    });
  });
}
