import { expect } from 'chai';
import { NEVER, of, throwError, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { Utterance } from '../../../src/domain/frames.js';
import type { Assessment } from '../../../src/domain/verdict.js';
import type { ModelInput } from '../../../src/providers/llm/types.js';
import { modelScore } from '../../../operators/model-score.js';

const A: Assessment = { score: 0.8, category: 'Tax Collection', tactics: ['threat'], signals: [] };
const caller = (chars: number): Utterance => ({ role: 'caller', speaker: 'caller', text: 'x'.repeat(chars), at: 0 });
const callee = (chars: number): Utterance => ({ role: 'callee', speaker: 'callee', text: 'y'.repeat(chars), at: 0 });

function scheduler() {
  return new TestScheduler((a, b) => {
    expect(a).to.deep.equal(b);
  });
}

describe('modelScore operator (30 s cadence, 120 new caller characters)', () => {
  it('calls the model on the 30 s tick only when 120 new caller characters arrived since the last call', () => {
    const ts = scheduler();
    const calls: Array<{ at: number; input: ModelInput }> = [];
    ts.run(({ cold, expectObservable }) => {
      // 150 chars at 1 s → call at 30 s. Nothing new → no call at 60 s. 100 + 30 chars by 70 s → call at 90 s.
      const utterances$ = cold('1s a 59s b 9s c 59s |', { a: caller(150), b: caller(100), c: caller(30) });
      const out$ = utterances$.pipe(
        modelScore({
          score: (input) => {
            calls.push({ at: ts.now(), input });
            return of(A);
          },
          scheduler: ts,
          product: 'filter',
        }),
      );
      expectObservable(out$).toBe('30s x 59999ms y 38002ms |', {
        x: { kind: 'assessment', assessment: A },
        y: { kind: 'assessment', assessment: A },
      });
    });
    expect(calls.map((c) => c.at)).to.deep.equal([30_000, 90_000]);
    expect(calls[1]!.input.utterances).to.have.length(3);
    expect(calls[1]!.input.callerText.length).to.equal(150 + 100 + 30 + 2);
  });

  it('never counts the callee toward the 120 characters', () => {
    const ts = scheduler();
    const inputs: ModelInput[] = [];
    ts.run(({ cold, expectObservable }) => {
      const utterances$ = cold('1s a b c 60s |', { a: callee(500), b: caller(119), c: callee(200) });
      const out$ = utterances$.pipe(
        modelScore({ score: (i) => (inputs.push(i), of(A)), scheduler: ts, product: 'filter' }),
      );
      expectObservable(out$).toBe('1s 60003ms |');
    });
    expect(inputs).to.deep.equal([]);
  });

  it('turns a provider refusal into an error result and keeps scoring afterwards', () => {
    const ts = scheduler();
    let n = 0;
    ts.run(({ cold, expectObservable }) => {
      const utterances$ = cold('a 30s b 30s |', { a: caller(130), b: caller(130) });
      const out$ = utterances$.pipe(
        modelScore({
          score: (): Observable<Assessment> =>
            n++ === 0 ? throwError(() => new Error('model refused: throttled')) : of(A),
          scheduler: ts,
          product: 'filter',
        }),
      );
      expectObservable(out$).toBe('30s e 29999ms x 1ms |', {
        e: {
          kind: 'error',
          error: 'model refused: throttled',
          text: 'live model scoring failed; rule scoring continues',
        },
        x: { kind: 'assessment', assessment: A },
      });
    });
  });

  it('skips ticks while a call is pending and aborts it when the utterances end', () => {
    const ts = scheduler();
    const signals: AbortSignal[] = [];
    ts.run(({ cold, expectObservable }) => {
      const utterances$ = cold('a 30s b 30s c 30s |', { a: caller(130), b: caller(130), c: caller(130) });
      const out$ = utterances$.pipe(
        modelScore({ score: (_i, signal) => (signals.push(signal), NEVER), scheduler: ts, product: 'filter' }),
      );
      expectObservable(out$).toBe('90003ms |');
    });
    expect(signals).to.have.length(1);
    expect(signals[0]!.aborted).to.equal(true);
  });
});

describe('modelScore: subscription', () => {
  it('lets go of the utterances and of the model call in flight when unsubscribed', () => {
    const ts = scheduler();
    ts.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const utterances$ = hot('a', { a: caller(130) });
      const answer$ = cold<Assessment>('20s (x|)', { x: A });
      const out$ = utterances$.pipe(modelScore({ score: () => answer$, scheduler: ts, product: 'filter' }));
      // The call starts at the 30 s tick; the subscriber leaves 5 s into it.
      expectObservable(out$, '^ 34999ms !').toBe('');
      expectSubscriptions(utterances$.subscriptions).toBe('^ 34999ms !');
      expectSubscriptions(answer$.subscriptions).toBe('30s ^ 4999ms !');
    });
  });

  it('lets go of the utterances when they complete, the call in flight with them', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable, expectSubscriptions }) => {
      const utterances$ = cold('a 39999ms |', { a: caller(130) });
      const answer$ = cold<Assessment>('20s (x|)', { x: A });
      const out$ = utterances$.pipe(modelScore({ score: () => answer$, scheduler: ts, product: 'filter' }));
      expectObservable(out$).toBe('40s |');
      expectSubscriptions(utterances$.subscriptions).toBe('^ 39999ms !');
      expectSubscriptions(answer$.subscriptions).toBe('30s ^ 9999ms !');
    });
  });
});
