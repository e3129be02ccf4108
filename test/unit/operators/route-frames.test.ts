import { expect } from 'chai';
import { map, merge, of, Subject, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { Frame } from '../../../src/domain/frames.js';
import { routeFrames } from '../../../operators/route-frames.js';

const scheduler = () =>
  new TestScheduler((a, b) => {
    expect(a).to.deep.equal(b);
  });

const bytes = new Uint8Array([1, 2]);
const F: Record<string, Frame> = {
  i: { kind: 'audio', track: 'inbound', data: bytes },
  o: { kind: 'audio', track: 'outbound', data: bytes },
  t: { kind: 'text', track: 'inbound', text: 'hi', final: true, endOfTurn: false },
  d: { kind: 'dtmf', digit: '5' },
  s: { kind: 'stop', reason: 'stop' },
};

describe('routeFrames operator', () => {
  it('sends each frame to the lane of its kind and track, and completes every lane after the stop', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const frames$ = cold<Frame>('i-o-t-d-i-s|', F);
      const tagged = frames$.pipe(
        routeFrames((l) =>
          merge(
            l.inbound$.pipe(map(() => 'I')),
            l.outbound$.pipe(map(() => 'O')),
            l.text$.pipe(map(() => 'T')),
            l.dtmf$.pipe(map(() => 'D')),
            l.stop$.pipe(map(() => 'S')),
          ),
        ),
      );
      expectObservable(tagged).toBe('I-O-T-D-I-(S|)', { I: 'I', O: 'O', T: 'T', D: 'D', S: 'S' });
    });
  });

  it('gives every frame, in order, to the all$ lane', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const frames$ = cold<Frame>('i-t-d-s|', F);
      expectObservable(frames$.pipe(routeFrames((l) => l.all$))).toBe('i-t-d-(s|)', F);
    });
  });

  it('loses no frame that arrives while the graph subscribes (the source is subscribed last)', () => {
    scheduler().run(({ expectObservable }) => {
      // `of` emits synchronously on subscription: frames sent before the lanes had subscribers would be lost.
      const frames$ = of(F.i!, F.t!);
      expectObservable(frames$.pipe(routeFrames((l) => merge(l.inbound$, l.text$)))).toBe('(it|)', F);
    });
  });

  it('passes an error of the source to every lane, and unsubscribes from the source with the result', () => {
    scheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const failing$ = cold<Frame>('i-#', F, new Error('boom'));
      expectObservable(failing$.pipe(routeFrames((l) => l.inbound$))).toBe('i-#', F, new Error('boom'));
      const frames$ = hot<Frame>('i-i-i-i', F);
      expectObservable(frames$.pipe(routeFrames((l) => l.inbound$)), '^--!').toBe('i-i', F);
      expectSubscriptions(frames$.subscriptions).toBe('^--!');
    });
  });

  it('makes the all$ lane when first subscribed: later frames reach it, and a subscriber after the end is told the end', () => {
    const frames$ = new Subject<Frame>();
    let all$: Observable<Frame> | undefined;
    const seen: string[] = [];
    frames$
      .pipe(
        routeFrames((l) => {
          all$ = l.all$;
          return l.inbound$;
        }),
      )
      .subscribe();
    frames$.next(F.i!);
    all$!.subscribe({ next: (f) => seen.push(f.kind), complete: () => seen.push('end') });
    frames$.next(F.t!);
    frames$.next(F.s!);
    all$!.subscribe({ complete: () => seen.push('late end') });
    expect(seen).to.deep.equal(['text', 'stop', 'end', 'late end']);
  });
});

describe('routeFrames: the end of a session', () => {
  const text: Frame = { kind: 'text', track: 'inbound', text: 'hi', final: true, endOfTurn: false };
  const until = (end$: Observable<'time_limit' | 'credits' | 'shutdown'>) => routeFrames((l) => l.all$, end$);

  it('passes frames up to and including the client stop', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const frames$ = cold<Frame>('a-a-s-a', { a: text, s: { kind: 'stop', reason: 'stop' } });
      expectObservable(frames$.pipe(until(cold('-')))).toBe('a-a-(s|)', {
        a: text,
        s: { kind: 'stop', reason: 'stop' },
      });
    });
  });

  it('ends with the trigger reason when credits or the time limit come first', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const frames$ = cold<Frame>('a-a-a-a', { a: text });
      expectObservable(frames$.pipe(until(cold('---c', { c: 'time_limit' as const })))).toBe('a-a(s|)', {
        a: text,
        s: { kind: 'stop', reason: 'time_limit' },
      });
    });
  });

  it('gives every lane the one stop frame, then completes them all', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const frames$ = cold<Frame>('i-t-i', F);
      const tagged = frames$.pipe(
        routeFrames(
          (l) =>
            merge(l.inbound$.pipe(map(() => 'I')), l.text$.pipe(map(() => 'T')), l.stop$.pipe(map((s) => s.reason))),
          cold('---c', { c: 'credits' as const }),
        ),
      );
      expectObservable(tagged).toBe('i-t(c|)', { i: 'I', t: 'T', c: 'credits' });
    });
  });

  it('lets go of the frames and the triggers once it has ended', () => {
    scheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const frames$ = hot<Frame>('-a-a-a-a-a', { a: text });
      const triggers$ = cold('----c', { c: 'credits' as const });
      expectObservable(frames$.pipe(until(triggers$))).toBe('-a-a(s|)', {
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
      expectObservable(cold<Frame>('a|', { a: text }).pipe(until(triggers$))).toBe('(s|)', {
        s: { kind: 'stop', reason: 'shutdown' },
      });
    });
  });

  it('treats the inbound stream ending without a stop as the socket closing', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<Frame>('a|', { a: text }).pipe(until(new Subject()))).toBe('a(s|)', {
        a: text,
        s: { kind: 'stop', reason: 'closed' },
      });
    });
  });

  it('passes an error of the end triggers to every lane', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const failing$ = cold<'credits'>('---#', undefined, new Error('store down'));
      expectObservable(cold<Frame>('a-a-a', { a: text }).pipe(until(failing$))).toBe(
        'a-a#',
        { a: text },
        new Error('store down'),
      );
    });
  });
});
