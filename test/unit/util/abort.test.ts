import { expect } from 'chai';
import { withTimeout } from '../../../src/util/abort.js';

describe('withTimeout', () => {
  it('follows the outer signal, with its reason', () => {
    const outer = new AbortController();
    const b = withTimeout(outer.signal, 60_000);
    expect(b.signal.aborted).to.equal(false);
    outer.abort(new Error('client went away'));
    expect(b.signal.aborted).to.equal(true);
    expect((b.signal.reason as Error).message).to.equal('client went away');
    b.done();
  });

  it('is aborted at once when the outer signal already was', () => {
    const b = withTimeout(AbortSignal.abort('gone'), 60_000);
    expect(b.signal.aborted).to.equal(true);
    expect(b.signal.reason).to.equal('gone');
    b.done();
  });

  it('aborts with a TimeoutError when the time is up', async () => {
    const b = withTimeout(new AbortController().signal, 1);
    await new Promise((resolve) => b.signal.addEventListener('abort', resolve, { once: true }));
    expect((b.signal.reason as DOMException).name).to.equal('TimeoutError');
  });

  it('after done(), neither the outer signal nor the timer reaches it', async () => {
    const outer = new AbortController();
    const b = withTimeout(outer.signal, 1);
    b.done();
    outer.abort();
    await new Promise((r) => setTimeout(r, 5));
    expect(b.signal.aborted).to.equal(false);
  });
});
