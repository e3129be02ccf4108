import { Observable, type OperatorFunction } from 'rxjs';
import { Segmenter, type SegmenterOptions } from '../src/audio/segmenter.js';

export type { SegmenterOptions };

/**
 * Continuous PCM → one PCM array per utterance, cut by voice activity (WebRTC VAD) with a hang-over.
 * Time is counted in samples, not clocks, so the cut points are the same however fast audio arrives.
 */
export function segment(opts: SegmenterOptions): OperatorFunction<Int16Array, Int16Array> {
  return (pcm$) =>
    new Observable<Int16Array>((out) => {
      const segmenter = new Segmenter(opts);
      const sub = pcm$.subscribe({
        next(chunk) {
          for (const utterance of segmenter.push(chunk)) out.next(utterance);
        },
        error: (e: unknown) => out.error(e),
        complete() {
          for (const utterance of segmenter.end()) out.next(utterance);
          out.complete();
        },
      });
      return () => {
        sub.unsubscribe();
        segmenter.destroy();
      };
    });
}
