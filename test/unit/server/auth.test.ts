import { expect } from 'chai';
import { createKey } from '../../../src/boot.js';
import { authenticate, KNOWN_KEY_TTL_MS } from '../../../src/server/auth.js';
import { createEmbeddedStore } from '../../../src/store/embedded/index.js';
import type { Store } from '../../../src/store/types.js';

describe('server/auth', () => {
  let store: Store;
  let lookups: number;
  beforeEach(() => {
    const real = createEmbeddedStore(':memory:');
    lookups = 0;
    store = {
      ...real,
      keys: {
        ...real.keys,
        findByHash: (hash) => {
          lookups++;
          return real.keys.findByHash(hash);
        },
      },
    };
  });
  afterEach(() => store.close());

  it('remembers a key it found for a while, then asks the store again', async () => {
    let t = 1_000;
    const now = () => t;
    const rec = await createKey(store, 'vk_known', 10, 'test');
    expect((await authenticate(store, 'vk_known', now))?.id).to.equal(rec.id);
    t += KNOWN_KEY_TTL_MS - 1;
    expect((await authenticate(store, 'vk_known', now))?.id).to.equal(rec.id);
    expect(lookups).to.equal(1);
    t += 1;
    expect((await authenticate(store, 'vk_known', now))?.id).to.equal(rec.id);
    expect(lookups).to.equal(2);
  });

  it('never remembers an unknown key: one created afterwards works at once', async () => {
    expect(await authenticate(store, 'vk_later')).to.equal(null);
    const rec = await createKey(store, 'vk_later', 10, 'test');
    expect((await authenticate(store, 'vk_later'))?.id).to.equal(rec.id);
  });

  it('refuses a missing, empty, oversized or wrong key without remembering it', async () => {
    await createKey(store, 'vk_right', 10, 'test');
    for (const k of [undefined, '', 'x'.repeat(513), 'vk_wrong']) expect(await authenticate(store, k)).to.equal(null);
    expect(await authenticate(store, 'vk_wrong')).to.equal(null);
    expect(lookups).to.equal(2);
  });
});
