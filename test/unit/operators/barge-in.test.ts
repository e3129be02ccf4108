import { expect } from 'chai';
import { TestScheduler } from 'rxjs/testing';
import { bargeIn, type CallerActivity } from '../../../operators/barge-in.js';

const newScheduler = () =>
  new TestScheduler((a, b) => {
    expect(a).to.deep.equal(b);
  });

describe('bargeIn', () => {
  it('fires on text at once and on sustained voice once per stretch', () => {
    const t = newScheduler();
    t.run(({ cold, expectObservable }) => {
      const v = (rms: number): CallerActivity => ({ kind: 'voice', rms, ms: 20 });
      const s = cold('q l q l l l l q l l l t', { q: v(50), l: v(3000), t: { kind: 'text' } as CallerActivity });
      // voice needs 60 ms: 3 loud frames in a row. Frames 3,4,5 → fire at frame 5 (index 10); a cough (1 frame) does not.
      expectObservable(s.pipe(bargeIn({ minVoiceMs: 60 }))).toBe('-----x----xx', { x: undefined });
    });
  });
});

describe('bargeIn: subscription', () => {
  const loud: CallerActivity = { kind: 'voice', rms: 3000, ms: 20 };

  it('completes with its source and lets go of it then', () => {
    newScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const s = cold('lll|', { l: loud });
      // The third 20 ms frame makes 60 ms of voice.
      expectObservable(s.pipe(bargeIn({ minVoiceMs: 60 }))).toBe('--x|', { x: undefined });
      expectSubscriptions(s.subscriptions).toBe('^--!');
    });
  });

  it('lets go of its source when unsubscribed, and passes a source error on', () => {
    newScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const s = hot<CallerActivity>('-t-t-t-t', { t: { kind: 'text' } });
      expectObservable(s.pipe(bargeIn()), '^--!').toBe('-x-', { x: undefined });
      expectSubscriptions(s.subscriptions).toBe('^--!');
      const failing = cold<CallerActivity>('t#', { t: { kind: 'text' } }, new Error('socket'));
      expectObservable(failing.pipe(bargeIn())).toBe('x#', { x: undefined }, new Error('socket'));
      expectSubscriptions(failing.subscriptions).toBe('^!');
    });
  });
});
