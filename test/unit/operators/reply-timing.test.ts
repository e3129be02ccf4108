import { expect } from 'chai';
import { TestScheduler } from 'rxjs/testing';
import { replyTiming, type TurnSignal } from '../../../operators/reply-timing.js';

const newScheduler = () =>
  new TestScheduler((a, b) => {
    expect(a).to.deep.equal(b);
  });

describe('replyTiming', () => {
  const sig: Record<string, TurnSignal> = {
    l: { kind: 'line' },
    e: { kind: 'end_of_turn' },
    a: { kind: 'activity' },
  };

  it('answers at once on end_of_turn, whether the mark comes after or before its line', () => {
    const t = newScheduler();
    t.run(({ cold, expectObservable }) => {
      const s = cold('-le 10s el', sig);
      expectObservable(s.pipe(replyTiming({ scheduler: t, pauseMs: 1200 }))).toBe('--x 10s -x', { x: undefined });
    });
  });

  it('otherwise answers after a pause of caller silence, restarted by activity', () => {
    const t = newScheduler();
    t.run(({ cold, expectObservable }) => {
      const s = cold('l 999ms a 2s l', sig);
      // line at 0, activity at 1000 → answer at 2200; second line at 3001 → answer at 4201
      expectObservable(s.pipe(replyTiming({ scheduler: t, pauseMs: 1200 }))).toBe('2200ms x 2000ms x', {
        x: undefined,
      });
    });
  });

  it('activity with no line waiting answers nothing', () => {
    const t = newScheduler();
    t.run(({ cold, expectObservable }) => {
      expectObservable(cold('a a 5s a', sig).pipe(replyTiming({ scheduler: t }))).toBe('');
    });
  });
});

describe('replyTiming: subscription', () => {
  const sig: Record<string, TurnSignal> = { l: { kind: 'line' }, e: { kind: 'end_of_turn' } };

  it('completes with its source and lets go of it then, dropping a pause still running', () => {
    const t = newScheduler();
    t.run(({ cold, expectObservable, expectSubscriptions }) => {
      const s = cold('le-l|', sig);
      expectObservable(s.pipe(replyTiming({ scheduler: t, pauseMs: 1200 }))).toBe('-x--|', { x: undefined });
      expectSubscriptions(s.subscriptions).toBe('^---!');
    });
  });

  it('lets go of its source when unsubscribed, and no pause fires after', () => {
    const t = newScheduler();
    t.run(({ hot, expectObservable, expectSubscriptions }) => {
      const s = hot('l 5s l', sig);
      expectObservable(s.pipe(replyTiming({ scheduler: t, pauseMs: 1200 })), '^ 999ms !').toBe('');
      expectSubscriptions(s.subscriptions).toBe('^ 999ms !');
    });
  });
});
