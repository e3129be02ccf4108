import { Observable, type OperatorFunction } from 'rxjs';
import type { EndReason, Frame, StopFrame } from '../src/domain/frames.js';

/**
 * Bounds a session's frames: passes frames up to and including the first stop, whether it comes
 * from the client (`stop`, socket closed) or from an end trigger (credits, time limit, shutdown).
 * The inbound stream ending without a stop counts as the socket closing.
 *
 * Written as one subscriber rather than `merge` + `endWith` + `takeWhile`: every audio frame of every
 * call passes here, and each composed operator would be another hop per frame.
 */
export function untilEnd(triggers$: Observable<EndReason>): OperatorFunction<Frame, Frame> {
  return (frames$) =>
    new Observable<Frame>((out) => {
      let ended = false;
      const stop = (reason: EndReason): void => {
        if (ended) return;
        ended = true;
        out.next({ kind: 'stop', reason } satisfies StopFrame);
        out.complete();
      };
      const sub = frames$.subscribe({
        next: (f) => {
          if (ended) return;
          if (f.kind === 'stop') stop(f.reason);
          else out.next(f);
        },
        error: (e: unknown) => out.error(e),
        complete: () => stop('closed'),
      });
      if (!ended) sub.add(triggers$.subscribe({ next: stop, error: (e: unknown) => out.error(e) }));
      return sub;
    });
}
