import { expect } from 'chai';
import { VirtualTimeScheduler } from 'rxjs';
import type { StoredSession } from '../../../src/domain/session.js';
import { createLogger } from '../../../src/log.js';
import { createEmbeddedStore } from '../../../src/store/embedded/index.js';
import { PURGE_EVERY_MS, retentionCutoff, startRetention } from '../../../src/store/retention.js';
import type { Store } from '../../../src/store/types.js';
import { aSession } from '../../contract/records.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-24T00:00:00.000Z');

/** Virtual time on the wall clock's scale, so the purge's cutoff is a real date. */
class Clock extends VirtualTimeScheduler {
  constructor(maxFrames: number) {
    super(undefined, maxFrames);
    // `now` is an instance field of RxJS schedulers, so it is replaced here rather than overridden.
    this.now = () => T0 + this.frame;
  }
}

const settle = () => new Promise((r) => setImmediate(r));

describe('store/retention', () => {
  let store: Store;
  beforeEach(() => (store = createEmbeddedStore(':memory:')));
  afterEach(() => store.close());

  const put = async (daysAgo: number, over: Partial<StoredSession> = {}) => {
    const s = aSession('k', { state: 'ended', started_at: new Date(T0 - daysAgo * DAY).toISOString(), ...over });
    await store.sessions.put(s);
    return s.id;
  };
  const ids = async () => (await store.sessions.listByKey('k', 100)).map((s) => s.id).sort();

  it('cuts off whole days before now', () => {
    expect(retentionCutoff(T0, 30)).to.equal('2026-10-25T00:00:00.000Z');
  });

  it('purges ended sessions past retention at once and then every hour, keeping open and recent ones', async () => {
    const old = await put(31);
    const open = await put(40, { state: 'open' });
    const recent = await put(29.99);
    const clock = new Clock(10 * PURGE_EVERY_MS);
    const sub = startRetention(store, 30, createLogger('silent'), clock);
    clock.flush(); // runs every tick of the ten hours at once; the first one purges
    await settle();
    expect(await ids()).to.deep.equal([open, recent].sort());
    expect(await store.sessions.get(old)).to.equal(null);
    sub.unsubscribe();
  });

  it('keeps going after a failed purge', async () => {
    let calls = 0;
    const flaky = {
      sessions: {
        ...store.sessions,
        purgeEnded: async () => {
          if (++calls === 1) throw new Error('store away');
          return 0;
        },
      },
    };
    const clock = new Clock(2 * PURGE_EVERY_MS);
    const sub = startRetention(flaky, 30, createLogger('silent'), clock);
    for (let i = 0; i < 3; i++) {
      clock.maxFrames = i * PURGE_EVERY_MS;
      clock.flush();
      await settle();
    }
    expect(calls).to.equal(3);
    sub.unsubscribe();
  });
});
