import { expect } from 'chai';
import { of } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { meter } from '../../../operators/meter.js';

const scheduler = () =>
  new TestScheduler((a, b) => {
    expect(a).to.deep.equal(b);
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

describe('credit meter: teardown', () => {
  it('drops a debit still pending when the session ends first, and charges nothing after', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable, expectSubscriptions }) => {
      // The store takes 10 s to answer; the session ends 5 s into the first debit.
      const debits: Array<ReturnType<typeof cold<boolean>>> = [];
      const ended$ = meter({
        debit: () => {
          const d = cold('10s (t|)', { t: true });
          debits.push(d);
          return d;
        },
        scheduler: ts,
      });
      expectObservable(ended$, '^ 64999ms !').toBe('');
      ts.schedule(() => {
        expect(debits).to.have.length(1);
        expectSubscriptions(debits[0]!.subscriptions).toBe('60s ^ 4999ms !');
      }, 70_000);
    });
  });

  it('runs debits one after another: a slow store delays the next charge instead of overlapping it', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable, expectSubscriptions }) => {
      const debits: Array<ReturnType<typeof cold<boolean>>> = [];
      const ended$ = meter({
        debit: () => {
          // The first debit takes 90 s (past the next tick) and is refused.
          const d = debits.length === 0 ? cold('90s (t|)', { t: true }) : cold('(f|)', { f: false });
          debits.push(d);
          return d;
        },
        scheduler: ts,
      });
      expectObservable(ended$).toBe('150s (c|)', { c: 'credits' });
      ts.schedule(() => {
        expectSubscriptions(debits[0]!.subscriptions).toBe('60s ^ 89999ms !');
        expectSubscriptions(debits[1]!.subscriptions).toBe('150s (^!)');
      }, 200_000);
    });
  });
});
