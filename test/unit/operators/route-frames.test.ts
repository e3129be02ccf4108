import { expect } from 'chai';
import { map, merge, of } from 'rxjs';
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
  it('sends each frame to the lane of its kind and track, and completes every lane with the source', () => {
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
      expectObservable(tagged).toBe('I-O-T-D-I-S|', { I: 'I', O: 'O', T: 'T', D: 'D', S: 'S' });
    });
  });

  it('gives every frame, in order, to the all$ lane', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const frames$ = cold<Frame>('i-t-d-s|', F);
      expectObservable(frames$.pipe(routeFrames((l) => l.all$))).toBe('i-t-d-s|', F);
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
});
