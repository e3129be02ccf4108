import { expect } from 'chai';
import { VirtualTimeScheduler } from 'rxjs';
import { DEFAULT_LEASE_SECONDS } from '../../../src/domain/lease.js';
import { createLogger } from '../../../src/log.js';
import { holdLeases } from '../../../src/session/leases.js';
import { createEmbeddedStore, type EmbeddedStore } from '../../../src/store/embedded/index.js';
import { INTERRUPTED_SUMMARY } from '../../../src/store/orphans.js';
import { aSession } from '../../contract/records.js';

const iso = (ms: number): string => new Date(ms).toISOString();

describe('session leases', function () {
  let store: EmbeddedStore;
  let scheduler: VirtualTimeScheduler;
  beforeEach(function () {
    store = createEmbeddedStore(':memory:');
    scheduler = new VirtualTimeScheduler();
    now = 0;
  });
  afterEach(async function () {
    await store.close();
  });

  /** Moves virtual time on one tick at a time, letting each tick's store work finish before the next. */
  let now = 0;
  async function advanceTo(ms: number): Promise<void> {
    while (now < ms) {
      now = Math.min(ms, now + 1000);
      scheduler.maxFrames = now;
      scheduler.flush();
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    }
  }

  it('by default, a node that stops renewing loses its sessions to another node within 60 s', async function () {
    const leaseMs = DEFAULT_LEASE_SECONDS * 1000;
    expect(leaseMs).to.be.at.most(60_000);
    // Both sessions were opened at time 0 with a full lease; the node of `orphan` died at once.
    const mine = aSession('k', { summary: undefined, node_id: 'pod-b', lease_until: iso(leaseMs), started_at: iso(0) });
    const orphan = aSession('k', {
      summary: undefined,
      node_id: 'pod-a',
      lease_until: iso(leaseMs),
      started_at: iso(0),
    });
    await store.sessions.put(mine);
    await store.sessions.put(orphan);
    const live = [mine.id];
    const sub = holdLeases({
      sessions: store.sessions,
      live: () => live,
      leaseMs,
      scheduler,
      log: createLogger('silent'),
    });

    await advanceTo(leaseMs);
    expect((await store.sessions.get(orphan.id))?.state, 'still within its lease').to.equal('open');
    await advanceTo(60_000);
    const closed = await store.sessions.get(orphan.id);
    expect(closed).to.include({ state: 'ended', summary: INTERRUPTED_SUMMARY, node_id: 'pod-a', from: orphan.from });
    expect(Date.parse(closed!.ended_at!)).to.be.at.most(60_000);
    expect(closed).to.not.have.property('lease_until');
    // The renewing node keeps its own session however long the call runs.
    expect(await store.sessions.get(mine.id)).to.include({ state: 'open' });

    await advanceTo(10 * 60_000);
    expect(await store.sessions.get(mine.id)).to.include({ state: 'open' });
    live.length = 0; // this node too stops vouching for it
    await advanceTo(10 * 60_000 + 60_000);
    expect(await store.sessions.get(mine.id)).to.include({ state: 'ended', summary: INTERRUPTED_SUMMARY });
    sub.unsubscribe();
  });
});
