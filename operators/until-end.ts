import { endWith, map, merge, takeWhile, type Observable, type OperatorFunction } from 'rxjs';
import type { EndReason, Frame, StopFrame } from '../src/domain/frames.js';

/**
 * Bounds a session's frames: passes frames up to and including the first stop, whether it comes
 * from the client (`stop`, socket closed) or from an end trigger (credits, time limit, shutdown).
 * The inbound stream ending without a stop counts as the socket closing.
 */
export function untilEnd(triggers$: Observable<EndReason>): OperatorFunction<Frame, Frame> {
  return (frames$) =>
    merge(
      frames$.pipe(endWith<Frame>({ kind: 'stop', reason: 'closed' })),
      triggers$.pipe(map((reason): StopFrame => ({ kind: 'stop', reason }))),
    ).pipe(takeWhile((f) => f.kind !== 'stop', true));
}
