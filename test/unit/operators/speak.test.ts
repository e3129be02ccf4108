import { expect } from 'chai';
import { Subject } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { speak } from '../../../operators/speak.js';

describe('speak', () => {
  it('synthesises in order and turns a refusal into a failed result', async () => {
    const results: string[] = [];
    // The first synthesis finishes only after every request is in: order must not follow finishing time.
    let finishSlow!: () => void;
    const slow = new Promise<void>((resolve) => (finishSlow = resolve));
    const reqs = new Subject<{ name: string; text: string }>();
    const done = new Promise<void>((resolve) =>
      reqs
        .pipe(
          speak(async (text) => {
            if (text === 'slow') await slow;
            if (text === 'bad') throw new Error('voice refused');
            return { pcm: new Int16Array(10), sampleRate: 8000 };
          }),
        )
        .subscribe({
          next: (r) => results.push(r.ok ? `ok:${r.request.name}` : `err:${r.request.name}:${r.error}`),
          complete: resolve,
        }),
    );
    reqs.next({ name: '1', text: 'slow' });
    reqs.next({ name: '2', text: 'bad' });
    reqs.next({ name: '3', text: 'fine' });
    reqs.complete();
    finishSlow();
    await done;
    expect(results).to.deep.equal(['ok:1', 'err:2:voice refused', 'ok:3']);
  });

  it('aborts the synthesis in flight when unsubscribed', async () => {
    let aborted = false;
    const reqs = new Subject<{ name: string; text: string }>();
    const sub = reqs
      .pipe(
        speak(
          (_t, signal) =>
            new Promise((_r, reject) =>
              signal.addEventListener('abort', () => ((aborted = true), reject(new Error('aborted')))),
            ),
        ),
      )
      .subscribe();
    reqs.next({ name: '1', text: 'x' });
    sub.unsubscribe();
    expect(aborted).to.equal(true);
  });
});

describe('speak: subscription', () => {
  const newScheduler = () =>
    new TestScheduler((a, b) => {
      expect(a).to.deep.equal(b);
    });

  it('lets go of the requests when unsubscribed, aborting the synthesis in flight', () => {
    const signals: AbortSignal[] = [];
    newScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const requests$ = hot('a 10ms b', { a: { name: '1', text: 'hi' }, b: { name: '2', text: 'there' } });
      const out$ = requests$.pipe(speak((_t, signal) => (signals.push(signal), new Promise<never>(() => {}))));
      expectObservable(out$, '^ 4ms !').toBe('');
      expectSubscriptions(requests$.subscriptions).toBe('^ 4ms !');
    });
    expect(signals.map((s) => s.aborted)).to.deep.equal([true]);
  });

  it('lets go of the requests when they complete, while the last synthesis still runs', () => {
    newScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const requests$ = cold('a-|', { a: { name: '1', text: 'hi' } });
      expectObservable(requests$.pipe(speak(() => new Promise<never>(() => {})))).toBe('');
      expectSubscriptions(requests$.subscriptions).toBe('^-!');
    });
  });
});
