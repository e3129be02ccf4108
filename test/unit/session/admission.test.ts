import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServices, closeServices, createKey, newApiKey } from '../../../src/boot.js';
import { loadConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/log.js';
import type { Services } from '../../../src/services.js';
import type { SessionActor } from '../../../src/session/actor.js';
import { Admission, type AdmissionDeps } from '../../../src/session/admission.js';
import { InsufficientCreditsError } from '../../../src/session/supervisor.js';
import { RateLimiter } from '../../../src/server/rate-limit.js';

/** Every refusal gives its capacity slot back; a ticket holds one until its session ends. */
describe('session admission', function () {
  let dir: string;
  let services: Services;
  let rich: string;
  let poor: string;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-adm-'));
    const config = loadConfig({ VOICE_DATA_DIR: dir, VOICE_LLM: 'none', VOICE_STT: 'none', VOICE_TTS: 'none' });
    services = await buildServices(config, createLogger('silent'));
    rich = newApiKey();
    poor = newApiKey();
    await createKey(services.store, rich, 1000, 'rich');
    await createKey(services.store, poor, 1, 'poor');
  });
  after(async () => {
    await closeServices(services);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function door(over: Partial<AdmissionDeps> & { capacity?: number; charge?: boolean } = {}) {
    const state = { slots: 0 };
    const capacity = over.capacity ?? 1;
    const deps: AdmissionDeps = {
      features: new Set(['live_filter', 'honeypot'] as const),
      store: services.store,
      personas: services.personas,
      supervisor: {
        hasPipeline: () => true,
        reserve: () => {
          if (state.slots >= capacity) return null;
          state.slots++;
          let released = false;
          return {
            release: () => {
              if (released) return;
              released = true;
              state.slots--;
            },
          };
        },
        open: () => {
          if (over.charge === false) return Promise.reject(new InsufficientCreditsError(8));
          return Promise.resolve({ id: 'opened' } as SessionActor);
        },
      },
      ...over,
    };
    return { admission: new Admission(deps), state };
  }

  it('refuses in the door order and gives the slot back each time', async () => {
    const cases: Array<[ReturnType<typeof door>, string | undefined, string]> = [
      [door({ features: new Set(['scan'] as const) }), rich, 'feature_off'],
      [door({ capacity: 0 }), rich, 'node_full'],
      [door(), undefined, 'key_missing'],
      [door(), 'wrong', 'key_wrong'],
      [door({ limits: { key: () => ({ ok: false, retryAfterSeconds: 7 }) } }), rich, 'rate_limited'],
      [door(), poor, 'no_credits'],
    ];
    for (const [{ admission, state }, presented, cause] of cases) {
      const r = await admission.admit('honeypot', { presented }, {});
      expect(r.ok ? 'admitted' : r.refusal.cause).to.equal(cause);
      expect(state.slots, cause).to.equal(0);
    }
  });

  it('a ticket holds its slot, refuses an unknown persona, and releases the slot when nothing can be charged', async () => {
    const { admission, state } = door({ charge: false });
    const r = await admission.admit('honeypot', { presented: rich }, { persona: 'Nobody' });
    if (!r.ok) throw new Error(r.refusal.cause);
    expect(state.slots).to.equal(1);
    const bad = r.value.options();
    expect(bad.ok ? null : bad.refusal).to.deep.equal({ status: 400, cause: 'unknown_persona', option: 'persona' });
    // The start's params win over the door's options.
    const good = r.value.options({ persona: services.personas[0]!.id });
    if (!good.ok) throw new Error(good.refusal.cause);
    const start = { audio: { encoding: 'mulaw' as const, sampleRate: 8000 }, params: {} };
    const opened = await r.value.open('raw', start, good.value);
    expect(opened.ok ? null : opened.refusal).to.deep.equal({ status: 402, cause: 'no_credits', price: 8 });
    expect(state.slots).to.equal(0);
  });

  it('a deferred ticket is identified later; a key the node holds is not rate-limited', async () => {
    const limiter = new RateLimiter(1);
    const { admission } = door({ capacity: 5, limits: { key: (id) => limiter.take(id) } });
    const later = await admission.admit('filter', { deferred: true }, {});
    if (!later.ok) throw new Error(later.refusal.cause);
    expect(later.value.key).to.equal(null);
    expect(await later.value.identify('wrong')).to.deep.equal({ status: 401, cause: 'key_wrong' });
    expect(await later.value.identify(rich)).to.equal(null);
    expect(later.value.key?.label).to.equal('rich');
    // The key's one request a minute is spent: presented again, it is limited; held by the node, it is not.
    const again = await admission.admit('filter', { presented: rich }, {});
    expect(again.ok ? null : again.refusal.cause).to.equal('rate_limited');
    const owner = later.value.key!;
    expect((await admission.admit('filter', { owner, signingKey: 'secret' }, {})).ok).to.equal(true);
  });
});
