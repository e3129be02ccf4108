import { Observable, type OperatorFunction, type Subscriber } from 'rxjs';
import type { EndReason, Frame, StopFrame } from '../src/domain/frames.js';
import { FrameSubscriber } from '../src/util/frame-subscriber.js';

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
      const bounded = new UntilEndSubscriber(out);
      frames$.subscribe(bounded);
      if (bounded.ended) return;
      bounded.add(triggers$.subscribe({ next: (r) => bounded.stop(r), error: (e: unknown) => out.error(e) }));
    });
}

class UntilEndSubscriber extends FrameSubscriber<Frame, Frame> {
  ended = false;

  constructor(out: Subscriber<Frame>) {
    super(out);
  }

  stop(reason: EndReason): void {
    if (this.ended) return;
    this.ended = true;
    this.out.next({ kind: 'stop', reason } satisfies StopFrame);
    this.out.complete();
  }

  protected override _next(f: Frame): void {
    if (this.ended) return;
    if (f.kind === 'stop') this.stop(f.reason);
    else this.out.next(f);
  }

  protected override _complete(): void {
    this.stop('closed');
    this.unsubscribe();
  }
}
