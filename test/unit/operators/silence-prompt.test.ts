import { expect } from 'chai';
import { TestScheduler } from 'rxjs/testing';
import { silencePrompts, type SilenceSignal } from '../../../operators/silence-prompt.js';

const newScheduler = () =>
  new TestScheduler((a, b) => {
    expect(a).to.deep.equal(b);
  });

describe('silencePrompts', () => {
  it('prompts after 8 s of silence, three times, then hangs up', () => {
    const t = newScheduler();
    t.run(({ cold, expectObservable }) => {
      // persona talks 0–2 s (greeting); prompts are 1 s long each.
      const s = cold<SilenceSignal>('s 1999ms e 8999ms s 999ms e 8999ms s 999ms e 8999ms s 999ms e', {
        s: 'persona_start',
        e: 'persona_end',
      });
      expectObservable(s.pipe(silencePrompts({ scheduler: t }))).toBe('10s a 9999ms b 9999ms c 9999ms (h|)', {
        a: { kind: 'prompt', n: 1 },
        b: { kind: 'prompt', n: 2 },
        c: { kind: 'prompt', n: 3 },
        h: { kind: 'hangup' },
      });
    });
  });

  it('the caller speaking resets the count and the clock', () => {
    const t = newScheduler();
    t.run(({ cold, expectObservable }) => {
      const s = cold<SilenceSignal>('e 7s c 7s c', { e: 'persona_end', c: 'caller' });
      expectObservable(s.pipe(silencePrompts({ scheduler: t }))).toBe('22002ms a', { a: { kind: 'prompt', n: 1 } });
    });
  });

  it('no prompt while the persona is talking', () => {
    const t = newScheduler();
    t.run(({ cold, expectObservable }) => {
      const s = cold<SilenceSignal>('e 1s s 20s e', { e: 'persona_end', s: 'persona_start' });
      expectObservable(s.pipe(silencePrompts({ scheduler: t, silenceMs: 8000 }))).toBe('21002ms 8s a', {
        a: { kind: 'prompt', n: 1 },
      });
    });
  });
});

describe('silencePrompts: subscription', () => {
  it('lets go of its source once it hangs up', () => {
    const t = newScheduler();
    t.run(({ hot, expectObservable, expectSubscriptions }) => {
      const s = hot<SilenceSignal>('e 60s s', { e: 'persona_end', s: 'persona_start' });
      // No prompts left: the first silence hangs up.
      expectObservable(s.pipe(silencePrompts({ scheduler: t, silenceMs: 1000, maxPrompts: 0 }))).toBe('1s (h|)', {
        h: { kind: 'hangup' },
      });
      expectSubscriptions(s.subscriptions).toBe('^ 999ms !');
    });
  });

  it('completes with its source, and lets go of it when unsubscribed', () => {
    const t = newScheduler();
    t.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const ended = cold<SilenceSignal>('e|', { e: 'persona_end' });
      expectObservable(ended.pipe(silencePrompts({ scheduler: t }))).toBe('-|');
      expectSubscriptions(ended.subscriptions).toBe('^!');
      const live = hot<SilenceSignal>('e', { e: 'persona_end' });
      expectObservable(live.pipe(silencePrompts({ scheduler: t })), '^ 7999ms !').toBe('');
      expectSubscriptions(live.subscriptions).toBe('^ 7999ms !');
    });
  });
});
