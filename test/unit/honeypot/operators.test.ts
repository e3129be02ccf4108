import { expect } from 'chai';
import { Subject, map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { bargeIn, type CallerActivity } from '../../../operators/barge-in.js';
import { paceAudio, type Clip } from '../../../operators/pace-audio.js';
import { replyTiming, type TurnSignal } from '../../../operators/reply-timing.js';
import { silencePrompts, type SilenceSignal } from '../../../operators/silence-prompt.js';
import { speak } from '../../../operators/speak.js';
import type { OutboundFrame } from '../../../src/domain/frames.js';

const newScheduler = () =>
  new TestScheduler((a, b) => {
    expect(a).to.deep.equal(b);
  });

describe('honeypot operators', () => {
  describe('replyTiming', () => {
    const sig: Record<string, TurnSignal> = {
      l: { kind: 'line' },
      e: { kind: 'end_of_turn' },
      a: { kind: 'activity' },
    };

    it('answers at once on end_of_turn, whether the mark comes after or before its line', () => {
      const t = newScheduler();
      t.run(({ cold, expectObservable }) => {
        const s = cold('-le 10s el', sig);
        expectObservable(s.pipe(replyTiming({ scheduler: t, pauseMs: 1200 }))).toBe('--x 10s -x', { x: undefined });
      });
    });

    it('otherwise answers after a pause of caller silence, restarted by activity', () => {
      const t = newScheduler();
      t.run(({ cold, expectObservable }) => {
        const s = cold('l 999ms a 2s l', sig);
        // line at 0, activity at 1000 → answer at 2200; second line at 3001 → answer at 4201
        expectObservable(s.pipe(replyTiming({ scheduler: t, pauseMs: 1200 }))).toBe('2200ms x 2000ms x', {
          x: undefined,
        });
      });
    });

    it('activity with no line waiting answers nothing', () => {
      const t = newScheduler();
      t.run(({ cold, expectObservable }) => {
        expectObservable(cold('a a 5s a', sig).pipe(replyTiming({ scheduler: t }))).toBe('');
      });
    });
  });

  describe('bargeIn', () => {
    it('fires on text at once and on sustained voice once per stretch', () => {
      const t = newScheduler();
      t.run(({ cold, expectObservable }) => {
        const v = (rms: number): CallerActivity => ({ kind: 'voice', rms, ms: 20 });
        const s = cold('q l q l l l l q l l l t', { q: v(50), l: v(3000), t: { kind: 'text' } as CallerActivity });
        // voice needs 60 ms: 3 loud frames in a row. Frames 3,4,5 → fire at frame 5 (index 10); a cough (1 frame) does not.
        expectObservable(s.pipe(bargeIn({ minVoiceMs: 60 }))).toBe('-----x----xx', { x: undefined });
      });
    });
  });

  describe('silencePrompts', () => {
    it('prompts after 8 s of silence, three times, then hangs up', () => {
      const t = newScheduler();
      t.run(({ cold, expectObservable }) => {
        // persona talks 0–2 s (greeting); prompts are 1 s long each.
        const s = cold<SilenceSignal>('s 1999ms e 8999ms s 999ms e 8999ms s 999ms e 8999ms s 999ms e', {
          s: 'persona_start',
          e: 'persona_end',
        });
        expectObservable(s.pipe(silencePrompts({ scheduler: t }))).toBe('10s a 9999ms b 9999ms c 9999ms (h|)', {
          a: { kind: 'prompt', n: 1 },
          b: { kind: 'prompt', n: 2 },
          c: { kind: 'prompt', n: 3 },
          h: { kind: 'hangup' },
        });
      });
    });

    it('the caller speaking resets the count and the clock', () => {
      const t = newScheduler();
      t.run(({ cold, expectObservable }) => {
        const s = cold<SilenceSignal>('e 7s c 7s c', { e: 'persona_end', c: 'caller' });
        expectObservable(s.pipe(silencePrompts({ scheduler: t }))).toBe('22002ms a', { a: { kind: 'prompt', n: 1 } });
      });
    });

    it('no prompt while the persona is talking', () => {
      const t = newScheduler();
      t.run(({ cold, expectObservable }) => {
        const s = cold<SilenceSignal>('e 1s s 20s e', { e: 'persona_end', s: 'persona_start' });
        expectObservable(s.pipe(silencePrompts({ scheduler: t, silenceMs: 8000 }))).toBe('21002ms 8s a', {
          a: { kind: 'prompt', n: 1 },
        });
      });
    });
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

  describe('speak', () => {
    it('synthesises in order and turns a refusal into a failed result', async () => {
      const results: string[] = [];
      const reqs = new Subject<{ name: string; text: string }>();
      const done = new Promise<void>((resolve) =>
        reqs
          .pipe(
            speak(async (text) => {
              await new Promise((r) => setTimeout(r, text === 'slow' ? 30 : 1));
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
});
