import { expect } from 'chai';
import { TestScheduler } from 'rxjs/testing';
import { timeLimit, FILTER_TIME_LIMIT_MS, HONEYPOT_TIME_LIMIT_MS } from '../../../operators/time-limit.js';

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
