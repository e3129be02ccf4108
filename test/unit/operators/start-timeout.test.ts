import { expect } from 'chai';
import { TestScheduler } from 'rxjs/testing';
import { startTimeout, StartTimeoutError } from '../../../operators/start-timeout.js';

const scheduler = () =>
  new TestScheduler((a, b) => {
    expect(a).to.deep.equal(b);
  });

describe('startTimeout operator', () => {
  it('passes a start that arrives within 15 s', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      expectObservable(cold('14999ms s', { s: 'start' }).pipe(startTimeout(15_000, ts))).toBe('14999ms (s|)', {
        s: 'start',
      });
    });
  });

  it('errors at 15 s when no start came (filter), at 10 s on the honeypot', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      expectObservable(cold('-').pipe(startTimeout(15_000, ts))).toBe(
        '15s #',
        undefined,
        new StartTimeoutError(15_000),
      );
      expectObservable(cold('10001ms s').pipe(startTimeout(10_000, ts))).toBe(
        '10s #',
        undefined,
        new StartTimeoutError(10_000),
      );
    });
  });
});

describe('startTimeout: subscription', () => {
  it('lets go of the frames once the start has come, or when the time runs out', () => {
    const ts = scheduler();
    ts.run(({ hot, expectObservable, expectSubscriptions }) => {
      const early$ = hot('-s-x-x', { s: 'start', x: 'frame' });
      expectObservable(early$.pipe(startTimeout(15_000, ts))).toBe('-(s|)', { s: 'start' });
      expectSubscriptions(early$.subscriptions).toBe('^!');
      const late$ = hot('16s s');
      expectObservable(late$.pipe(startTimeout(15_000, ts))).toBe('15s #', undefined, new StartTimeoutError(15_000));
      expectSubscriptions(late$.subscriptions).toBe('^ 14999ms !');
    });
  });

  it('lets go of the frames when the socket goes before the start', () => {
    const ts = scheduler();
    ts.run(({ hot, expectObservable, expectSubscriptions }) => {
      const frames$ = hot('----s');
      expectObservable(frames$.pipe(startTimeout(15_000, ts)), '^-!').toBe('');
      expectSubscriptions(frames$.subscriptions).toBe('^-!');
    });
  });
});
