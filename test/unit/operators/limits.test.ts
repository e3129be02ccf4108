import { expect } from 'chai';
import { of } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { meter } from '../../../operators/meter.js';
import { startTimeout, StartTimeoutError } from '../../../operators/start-timeout.js';
import { FILTER_TIME_LIMIT_MS, HONEYPOT_TIME_LIMIT_MS } from '../../../src/domain/limits.js';
import { timeLimit } from '../../../operators/time-limit.js';

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

describe('credit meter', () => {
  it('charges every started minute after the first and ends the session when a debit is refused', () => {
    const ts = scheduler();
    const charged: number[] = [];
    ts.run(({ expectObservable }) => {
      // Balance for two more minutes: debits at 1:00 and 2:00 succeed, 3:00 fails.
      let balance = 2;
      const ended$ = meter({
        debit: () => {
          charged.push(ts.now());
          return of(balance-- > 0);
        },
        scheduler: ts,
      });
      expectObservable(ended$).toBe('180s (c|)', { c: 'credits' });
    });
    expect(charged).to.deep.equal([60_000, 120_000, 180_000]);
  });

  it('does not charge again before a minute has started', () => {
    const ts = scheduler();
    const charged: number[] = [];
    ts.run(({ expectObservable }) => {
      const ended$ = meter({ debit: () => (charged.push(ts.now()), of(true)), scheduler: ts });
      expectObservable(ended$, '^ 59999ms !').toBe('');
    });
    expect(charged).to.deep.equal([]);
  });

  it('never charges at the time limit itself: a 60-minute session owes 60 started minutes', () => {
    const ts = scheduler();
    const charged: number[] = [];
    ts.run(({ expectObservable }) => {
      const ended$ = meter({ debit: () => (charged.push(ts.now()), of(true)), scheduler: ts, maxCharges: 59 });
      // Done charging at 59:00; the time limit, not the meter, ends the session.
      expectObservable(ended$).toBe('3540s |');
    });
    expect(charged).to.have.length(59);
    expect(charged.at(-1)).to.equal(59 * 60_000);
  });
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
