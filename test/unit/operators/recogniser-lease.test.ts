import { expect } from 'chai';
import { Subject } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { recogniserLease, type LeaseOptions } from '../../../operators/recogniser-lease.js';
import { createCallSlots } from '../../../src/providers/stt/call-slots.js';

const scheduler = () =>
  new TestScheduler((a, b) => {
    expect(a).to.deep.equal(b);
  });

/** An utterance of `n` samples, tagged by its first sample so the output can be read. */
const utt = (tag: number, n = 10): Int16Array => new Int16Array(n).fill(tag);

interface Call {
  in$: Subject<Int16Array>;
  out: number[];
  log: string[];
  done: boolean;
}

function call(ts: TestScheduler, options: Partial<LeaseOptions> & Pick<LeaseOptions, 'slots'>): Call {
  const c: Call = { in$: new Subject(), out: [], log: [], done: false };
  c.in$
    .pipe(
      recogniserLease({
        scheduler: ts,
        idleMs: 30_000,
        backlogSamples: 30,
        onRefused: () => c.log.push(`refused@${ts.now()}`),
        onAdmitted: (held, dropped) => c.log.push(`admitted@${ts.now()} held=${held} dropped=${dropped}`),
        onGaveUp: (lost) => c.log.push(`gave up, lost ${lost}`),
        ...options,
      }),
    )
    .subscribe({ next: (u) => c.out.push(u[0]!), complete: () => (c.done = true) });
  return c;
}

describe('recogniserLease operator', () => {
  it('takes no slot until the first utterance, and gives it back when the audio ends', () => {
    const ts = scheduler();
    ts.run(() => {
      const slots = createCallSlots(1);
      const a = call(ts, { slots });
      expect(slots.inUse).to.equal(0);
      a.in$.next(utt(1));
      expect(slots.inUse).to.equal(1);
      expect(a.out).to.deep.equal([1]);
      a.in$.complete();
      expect(slots.inUse).to.equal(0);
      expect(a.done).to.equal(true);
    });
  });

  it('gives the slot back after the idle time in virtual time, and takes it again on new speech', () => {
    const ts = scheduler();
    ts.run(({ flush }) => {
      const slots = createCallSlots(1);
      const a = call(ts, { slots, idleMs: 30_000 });
      a.in$.next(utt(1));
      ts.schedule(() => a.in$.next(utt(2)), 20_000);
      ts.schedule(() => expect(slots.inUse, 'still talking at 49 s').to.equal(1), 49_000);
      ts.schedule(() => expect(slots.inUse, 'silent for 30 s').to.equal(0), 50_001);
      ts.schedule(() => a.in$.next(utt(3)), 60_000);
      ts.schedule(() => expect(slots.inUse, 'talking again').to.equal(1), 60_001);
      flush();
      expect(slots.inUse).to.equal(0);
      expect(a.out).to.deep.equal([1, 2, 3]);
      expect(a.log).to.deep.equal([]);
    });
  });

  it('tells a call beyond the limit once, keeps its latest speech, and admits it when a slot frees', () => {
    const ts = scheduler();
    ts.run(({ flush }) => {
      const slots = createCallSlots(1);
      const a = call(ts, { slots });
      const b = call(ts, { slots, backlogSamples: 25 });
      a.in$.next(utt(1));
      ts.schedule(() => b.in$.next(utt(21)), 1000);
      ts.schedule(() => b.in$.next(utt(22)), 2000);
      ts.schedule(() => b.in$.next(utt(23)), 3000); // 30 samples held > 25: the oldest goes
      ts.schedule(() => a.in$.complete(), 5000);
      ts.schedule(() => b.in$.next(utt(24)), 6000);
      ts.schedule(() => expect(slots.inUse, 'b holds it').to.equal(1), 6001);
      flush();
      expect(b.log).to.deep.equal(['refused@1000', 'admitted@5000 held=2 dropped=1']);
      expect(b.out).to.deep.equal([22, 23, 24]);
    });
  });

  it('reports speech it could not transcribe when the call ends still waiting', () => {
    const ts = scheduler();
    ts.run(() => {
      const slots = createCallSlots(1);
      const a = call(ts, { slots });
      const b = call(ts, { slots });
      a.in$.next(utt(1));
      b.in$.next(utt(2));
      b.in$.complete();
      expect(b.log).to.deep.equal(['refused@0', 'gave up, lost 1']);
      expect(b.done).to.equal(true);
      expect(slots.inUse).to.equal(1);
    });
  });
});

describe('recogniserLease: subscription', () => {
  const quiet = { onRefused: () => {}, onAdmitted: () => {}, onGaveUp: () => {} };

  it('passes utterances through while holding the slot and lets go of them, and the slot, on completion', () => {
    const ts = scheduler();
    const slots = createCallSlots(1);
    ts.run(({ cold, expectObservable, expectSubscriptions }) => {
      const utterances$ = cold('a-b|', { a: utt(1), b: utt(2) });
      const leased$ = utterances$.pipe(
        recogniserLease({ slots, scheduler: ts, idleMs: 30_000, backlogSamples: 30, ...quiet }),
      );
      expectObservable(leased$).toBe('a-b|', { a: utt(1), b: utt(2) });
      expectSubscriptions(utterances$.subscriptions).toBe('^--!');
    });
    expect(slots.inUse).to.equal(0);
  });

  it('on unsubscription lets go of the utterances, gives the slot back and stops waiting for one', () => {
    const ts = scheduler();
    const slots = createCallSlots(1);
    const admitted: number[] = [];
    ts.run(({ hot, expectObservable, expectSubscriptions }) => {
      const first$ = hot('a 10s a', { a: utt(1) });
      const second$ = hot('-b 10s b', { b: utt(2) });
      const lease = (onAdmitted: LeaseOptions['onAdmitted']) =>
        recogniserLease({ slots, scheduler: ts, idleMs: 30_000, backlogSamples: 30, ...quiet, onAdmitted });
      // The first call holds the only slot; the second waits for it, and leaves before it frees.
      expectObservable(first$.pipe(lease(() => {})), '^ 4999ms !').toBe('a', { a: utt(1) });
      expectObservable(second$.pipe(lease((held) => admitted.push(held))), '^ 1999ms !').toBe('');
      expectSubscriptions(first$.subscriptions).toBe('^ 4999ms !');
      expectSubscriptions(second$.subscriptions).toBe('^ 1999ms !');
    });
    expect(slots.inUse).to.equal(0);
    expect(admitted, 'a call that left is not admitted').to.deep.equal([]);
  });
});
