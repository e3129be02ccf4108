import { Observable, type OperatorFunction } from 'rxjs';
import { createResampler } from '../src/audio/resampler.js';

/**
 * PCM at `from` Hz → PCM at `to` Hz through an anti-aliased polyphase filter whose state runs across
 * chunks (no clicks at chunk edges). On completion the filter's tail is emitted.
 */
export function resample(from: number, to: number): OperatorFunction<Int16Array, Int16Array> {
  // Same rate: no stage at all, rather than a pass-through hop on every frame.
  if (from === to) return (pcm$) => pcm$;
  return (pcm$) =>
    new Observable<Int16Array>((out) => {
      const resampler = createResampler(from, to);
      const sub = pcm$.subscribe({
        next(chunk) {
          const y = resampler.process(chunk);
          if (y.length > 0) out.next(y);
        },
        error: (e: unknown) => out.error(e),
        complete() {
          const tail = resampler.flush();
          if (tail.length > 0) out.next(tail);
          out.complete();
        },
      });
      return () => {
        sub.unsubscribe();
        resampler.destroy();
      };
    });
}
