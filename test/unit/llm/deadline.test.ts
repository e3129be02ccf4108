import { expect } from 'chai';
import { withDeadline } from '../../../src/providers/llm/deadline.js';
import { ProviderError } from '../../../src/providers/errors.js';

const never = () => new Promise<never>(() => undefined);

describe('provider call deadline', () => {
  it('returns the work’s result in time', async () => {
    expect(await withDeadline('x', 1000, new AbortController().signal, async () => 42)).to.equal(42);
  });

  it('rejects with a retryable ProviderError at the deadline, even when the work ignores its signal', async () => {
    const t0 = Date.now();
    const err = (await withDeadline('x', 40, new AbortController().signal, never).catch(
      (e: unknown) => e,
    )) as ProviderError;
    expect(err).to.be.instanceOf(ProviderError);
    expect(err.retryable).to.equal(true);
    expect(err.message).to.equal('model call timed out after 40 ms');
    expect(Date.now() - t0).to.be.below(500);
  });

  it('aborts the work’s own signal at the deadline', async () => {
    let inner: AbortSignal | undefined;
    await withDeadline('x', 20, new AbortController().signal, (s) => {
      inner = s;
      return never();
    }).catch(() => undefined);
    expect(inner?.aborted).to.equal(true);
  });

  it('rejects with the caller’s abort reason, at once', async () => {
    const ac = new AbortController();
    const p = withDeadline('x', 10_000, ac.signal, never);
    ac.abort(new Error('session ended'));
    const err = (await p.catch((e: unknown) => e)) as Error;
    expect(err.message).to.equal('session ended');
  });

  it('refuses to start when already aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    let started = false;
    const err = (await withDeadline('x', 1000, ac.signal, async () => {
      started = true;
    }).catch((e: unknown) => e)) as Error;
    expect(started).to.equal(false);
    expect(err.name).to.equal('AbortError');
  });
});
