import { expect } from 'chai';
import { Subject, of } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { Frame } from '../../../src/domain/frames.js';
import { meter } from '../../../operators/meter.js';
import { startTimeout, StartTimeoutError } from '../../../operators/start-timeout.js';
import { timeLimit, FILTER_TIME_LIMIT_MS, HONEYPOT_TIME_LIMIT_MS } from '../../../operators/time-limit.js';
import { untilEnd } from '../../../operators/until-end.js';

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

describe('untilEnd operator', () => {
  const text: Frame = { kind: 'text', track: 'inbound', text: 'hi', final: true, endOfTurn: false };

  it('passes frames up to and including the client stop', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const frames$ = cold<Frame>('a-a-s-a', { a: text, s: { kind: 'stop', reason: 'stop' } });
      expectObservable(frames$.pipe(untilEnd(cold('-')))).toBe('a-a-(s|)', {
        a: text,
        s: { kind: 'stop', reason: 'stop' },
      });
    });
  });

  it('ends with the trigger reason when credits or the time limit come first', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const frames$ = cold<Frame>('a-a-a-a', { a: text });
      expectObservable(frames$.pipe(untilEnd(cold('---c', { c: 'time_limit' as const })))).toBe('a-a(s|)', {
        a: text,
        s: { kind: 'stop', reason: 'time_limit' },
      });
    });
  });

  it('lets go of the frames and the triggers once it has ended', () => {
    scheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const frames$ = hot<Frame>('-a-a-a-a-a', { a: text });
      const triggers$ = cold('----c', { c: 'credits' as const });
      expectObservable(frames$.pipe(untilEnd(triggers$))).toBe('-a-a(s|)', {
        a: text,
        s: { kind: 'stop', reason: 'credits' },
      });
      expectSubscriptions(frames$.subscriptions).toBe('^---!');
      expectSubscriptions(triggers$.subscriptions).toBe('^---!');
    });
  });

  it('ends at once, and only once, on triggers that fire as it is subscribed', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const triggers$ = of('shutdown' as const, 'time_limit' as const);
      expectObservable(cold<Frame>('a|', { a: text }).pipe(untilEnd(triggers$))).toBe('(s|)', {
        s: { kind: 'stop', reason: 'shutdown' },
      });
    });
  });

  it('treats the inbound stream ending without a stop as the socket closing', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<Frame>('a|', { a: text }).pipe(untilEnd(new Subject()))).toBe('a(s|)', {
        a: text,
        s: { kind: 'stop', reason: 'closed' },
      });
    });
  });
});
