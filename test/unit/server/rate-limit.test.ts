import { expect } from 'chai';
import { RateLimiter, RequestLimits } from '../../../src/server/rate-limit.js';

describe('server/rate-limit', () => {
  it('allows a burst of the per-minute allowance, then refuses with the wait until the next token', () => {
    let now = 0;
    const rl = new RateLimiter(60, () => now);
    for (let i = 0; i < 60; i++) expect(rl.take('a').ok, `request ${i}`).to.equal(true);
    expect(rl.take('a')).to.deep.equal({ ok: false, retryAfterSeconds: 1 });
    now += 1000; // one token per second at 60/min
    expect(rl.take('a').ok).to.equal(true);
    expect(rl.take('a').ok).to.equal(false);
  });

  it('rounds Retry-After up to whole seconds, never below one', () => {
    let now = 0;
    const rl = new RateLimiter(2, () => now);
    rl.take('a');
    rl.take('a');
    const r = rl.take('a');
    expect(r).to.deep.equal({ ok: false, retryAfterSeconds: 30 });
    now += 29_500;
    expect(rl.take('a')).to.deep.equal({ ok: false, retryAfterSeconds: 1 });
  });

  it('keeps identities apart', () => {
    const rl = new RateLimiter(1, () => 0);
    expect(rl.take('a').ok).to.equal(true);
    expect(rl.take('a').ok).to.equal(false);
    expect(rl.take('b').ok).to.equal(true);
  });

  it('never banks more than a minute of tokens', () => {
    let now = 0;
    const rl = new RateLimiter(3, () => now);
    now += 10 * 60_000;
    for (let i = 0; i < 3; i++) expect(rl.take('a').ok).to.equal(true);
    expect(rl.take('a').ok).to.equal(false);
  });

  it('forgets idle buckets (they would be full anyway)', () => {
    let now = 0;
    const rl = new RateLimiter(5, () => now, 1000);
    rl.take('a');
    rl.take('b');
    expect(rl.size).to.equal(2);
    now += 61_000;
    rl.take('c');
    expect(rl.size).to.equal(1);
  });

  it('limits addresses and keys separately', () => {
    const limits = new RequestLimits(1, () => 0);
    expect(limits.address('1.2.3.4').ok).to.equal(true);
    expect(limits.key('1.2.3.4').ok).to.equal(true);
    expect(limits.address('1.2.3.4').ok).to.equal(false);
  });
});
