import { expect } from 'chai';
import { take, takeUntil } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { FILTER_TIME_LIMIT_MS, HONEYPOT_TIME_LIMIT_MS } from '../../../src/domain/limits.js';
import { timeLimit } from '../../../operators/time-limit.js';

const scheduler = () =>
  new TestScheduler((a, b) => {
    expect(a).to.deep.equal(b);
  });

describe('time limit', () => {
  it('ends a filter session at 60 minutes and a honeypot session at 15', () => {
    const ts = scheduler();
    ts.run(({ expectObservable }) => {
      expectObservable(timeLimit(FILTER_TIME_LIMIT_MS, ts)).toBe('60m (t|)', { t: 'time_limit' });
      expectObservable(timeLimit(HONEYPOT_TIME_LIMIT_MS, ts)).toBe('15m (t|)', { t: 'time_limit' });
    });
  });
});

describe('time limit: teardown', () => {
  it('ends the frames it bounds at the limit, and lets go of them then', () => {
    const ts = scheduler();
    ts.run(({ hot, expectObservable, expectSubscriptions }) => {
      const frames$ = hot('a 20m a 20m a 20m a 20m a');
      expectObservable(frames$.pipe(takeUntil(timeLimit(HONEYPOT_TIME_LIMIT_MS, ts)))).toBe('a 899999ms |');
      expectSubscriptions(frames$.subscriptions).toBe('^ 899999ms !');
    });
  });

  it('fires nothing once unsubscribed before the limit', () => {
    const ts = scheduler();
    ts.run(({ expectObservable }) => {
      expectObservable(timeLimit(FILTER_TIME_LIMIT_MS, ts), '^ 59m !').toBe('');
      expectObservable(timeLimit(FILTER_TIME_LIMIT_MS, ts).pipe(take(1))).toBe('60m (t|)', { t: 'time_limit' });
    });
  });
});
