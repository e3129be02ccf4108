import { expect } from 'chai';
import { createKey } from '../../../src/boot.js';
import { authenticate, hashKey, KNOWN_KEY_TTL_MS } from '../../../src/server/auth.js';
import { createEmbeddedStore } from '../../../src/store/embedded/index.js';
import type { KeyRecord, Store } from '../../../src/store/types.js';

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

  it('refuses a revoked key once its remembered record runs out, and an expired key at its expiry', async () => {
    let t = Date.parse('2026-11-24T10:00:00.000Z');
    const now = () => t;
    const rec = await createKey(store, 'vk_revoked', 10, 'test');
    expect((await authenticate(store, 'vk_revoked', now))?.id).to.equal(rec.id);
    await store.keys.revoke(rec.id, new Date(t).toISOString());
    t += KNOWN_KEY_TTL_MS;
    expect(await authenticate(store, 'vk_revoked', now)).to.equal(null);

    const expiring = await createKeyExpiring(store, 'vk_expires', new Date(t + 60_000).toISOString());
    expect((await authenticate(store, 'vk_expires', now))?.id).to.equal(expiring.id);
    t += 60_000;
    expect(await authenticate(store, 'vk_expires', now)).to.equal(null);
  });

  it('records when a key was last used, once per lookup of the store', async () => {
    const t = Date.parse('2026-11-24T10:00:00.000Z');
    const rec = await createKey(store, 'vk_used', 10, 'test');
    await authenticate(store, 'vk_used', () => t);
    await authenticate(store, 'vk_used', () => t + 1);
    await new Promise((r) => setImmediate(r)); // the touch is written after the answer
    expect((await store.keys.findByHash(rec.hash))?.last_used_at).to.equal(new Date(t).toISOString());
  });
});

async function createKeyExpiring(store: Store, key: string, expiresAt: string): Promise<KeyRecord> {
  const rec: KeyRecord = {
    id: `k-${key}`,
    hash: hashKey(key),
    label: 'expiring',
    credits: 1,
    created_at: new Date().toISOString(),
    expires_at: expiresAt,
  };
  await store.keys.create(rec);
  return rec;
}
