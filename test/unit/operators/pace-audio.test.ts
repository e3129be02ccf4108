import { expect } from 'chai';
import { map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { paceAudio, type Clip } from '../../../operators/pace-audio.js';
import type { OutboundFrame } from '../../../src/domain/frames.js';

const newScheduler = () =>
  new TestScheduler((a, b) => {
    expect(a).to.deep.equal(b);
  });

describe('paceAudio', () => {
  const clip = (name: string, bytes: number): Clip => ({
    name,
    data: new Uint8Array(bytes).fill(name.charCodeAt(0)),
  });
  const simplify = (f: OutboundFrame): string =>
    f.kind === 'audio' ? `a${f.data.length}` : f.kind === 'mark' ? `m:${f.name}` : f.kind;

  it('sends 20 ms frames in real time with a short lead, then a mark', () => {
    const t = newScheduler();
    t.run(({ cold, expectObservable }) => {
      const s = cold('x', { x: clip('g', 160 * 5 + 80) });
      const out = s.pipe(paceAudio({ scheduler: t, frameBytes: 160, leadFrames: 2 }), map(simplify));
      // frames at 0 (two lead frames), then at 20, 40, 60 ms: 6 frames, the last short; mark with it.
      expectObservable(out).toBe('(aa) 16ms b 19ms b 19ms b 19ms (em)', { a: 'a160', b: 'a160', e: 'a80', m: 'm:g' });
    });
  });

  it('on interruption while speaking: clear, and the rest is dropped', () => {
    const t = newScheduler();
    t.run(({ cold, hot, expectObservable }) => {
      const s = cold('x', { x: clip('g', 160 * 10) });
      const interrupt$ = hot('50ms i 200ms i');
      const out = s.pipe(paceAudio({ scheduler: t, frameBytes: 160, leadFrames: 1, interrupt$ }), map(simplify));
      expectObservable(out).toBe('a 19ms a 19ms a 9ms c', { a: 'a160', c: 'clear' });
    });
  });

  it('queues clips one after another and completes when the source does and all is played', () => {
    const t = newScheduler();
    t.run(({ cold, expectObservable }) => {
      const s = cold('(xy|)', { x: clip('a', 320), y: clip('b', 160) });
      const out = s.pipe(paceAudio({ scheduler: t, frameBytes: 160, leadFrames: 1 }), map(simplify));
      expectObservable(out).toBe('a 19ms (am) 16ms (bn|)', { a: 'a160', m: 'm:a', b: 'a160', n: 'm:b' });
    });
  });
});

describe('paceAudio: subscription', () => {
  const clip = (name: string, bytes: number): Clip => ({ name, data: new Uint8Array(bytes) });
  const simplify = (f: OutboundFrame): string =>
    f.kind === 'audio' ? `a${f.data.length}` : f.kind === 'mark' ? `m:${f.name}` : f.kind;

  it('lets go of the clips and the interruptions when unsubscribed mid-clip, and sends no frame after', () => {
    const t = newScheduler();
    t.run(({ hot, expectObservable, expectSubscriptions }) => {
      const clips = hot('x', { x: clip('g', 160 * 10) });
      const interrupt$ = hot('1s i');
      const out = clips.pipe(paceAudio({ scheduler: t, frameBytes: 160, leadFrames: 1, interrupt$ }), map(simplify));
      expectObservable(out, '^ 29ms !').toBe('a 19ms a', { a: 'a160' });
      expectSubscriptions(clips.subscriptions).toBe('^ 29ms !');
      expectSubscriptions(interrupt$.subscriptions).toBe('^ 29ms !');
    });
  });

  it('lets go of the interruptions once the clips ended and all is played', () => {
    const t = newScheduler();
    t.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const clips = cold('(x|)', { x: clip('g', 320) });
      const interrupt$ = hot('1s i');
      const out = clips.pipe(paceAudio({ scheduler: t, frameBytes: 160, leadFrames: 1, interrupt$ }), map(simplify));
      expectObservable(out).toBe('a 19ms (am|)', { a: 'a160', m: 'm:g' });
      expectSubscriptions(clips.subscriptions).toBe('(^!)');
      expectSubscriptions(interrupt$.subscriptions).toBe('^ 19ms !');
    });
  });
});
