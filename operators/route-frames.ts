import { from, NEVER, Observable, type ObservableInput, type OperatorFunction, type Subscriber } from 'rxjs';
import { Relay } from '../src/util/relay.js';
import type { AudioFrame, DtmfFrame, EndReason, Frame, StopFrame, TextFrame } from '../src/domain/frames.js';
import { FrameSubscriber } from '../src/util/frame-subscriber.js';

/** A session's frames, one lane per kind (and per audio track). */
export interface FrameLanes {
  inbound$: Observable<AudioFrame>;
  outbound$: Observable<AudioFrame>;
  text$: Observable<TextFrame>;
  dtmf$: Observable<DtmfFrame>;
  /** The stop frame that ends the session; every lane completes right after it. */
  stop$: Observable<StopFrame>;
  /** Every frame, for a consumer that needs their order across kinds (the honeypot's dialogue). */
  all$: Observable<Frame>;
}

/**
 * A session's frames up to its end, routed: like `connect`, but each frame goes once, by its kind, to
 * the one lane that wants it, instead of being multicast to every branch for each to filter out what it
 * does not want. The selector builds the graph from the lanes; its output is the result.
 *
 * The session ends at the first stop, whether it comes from the client (`stop`, socket closed) or from
 * an end trigger in `end$` (credits, time limit, shutdown); the source ending without a stop counts as
 * the socket closing. Either way the lanes see one stop frame, then complete.
 *
 * Bounding and routing are one subscriber, not two operators, and the `all$` lane exists only once it
 * is subscribed: every frame of every call passes here, and at a thousand calls each object a frame
 * touches is a cache miss (see src/util/relay.ts). The source is subscribed after the selector's output,
 * so no frame is missed.
 */
export function routeFrames<R>(
  selector: (lanes: FrameLanes) => ObservableInput<R>,
  end$: Observable<EndReason> = NEVER,
): OperatorFunction<Frame, R> {
  return (frames$) =>
    new Observable<R>((out) => {
      const route = new RouteSubscriber(out);
      from(selector(route.lanes())).subscribe(out);
      // Last, so that no frame is missed; the route's subscriber is tied to `out`, so it ends with it.
      frames$.subscribe(route);
      if (route.ended) return;
      route.add(end$.subscribe({ next: (r) => route.stop(r), error: (e: unknown) => route.error(e) }));
    });
}

/**
 * The source's subscriber: frames go to the lanes until the first stop, and the end ends every lane.
 * The operator's output is the selector's, so only its unsubscription passes here; completion and
 * errors do not.
 */
class RouteSubscriber<R> extends FrameSubscriber<Frame, R> {
  ended = false;
  private readonly inbound = new Relay<AudioFrame>();
  private readonly outbound = new Relay<AudioFrame>();
  private readonly text = new Relay<TextFrame>();
  private readonly dtmf = new Relay<DtmfFrame>();
  private readonly stopLane = new Relay<StopFrame>();
  /** Made on the first subscription to `all$` (the filter never has one). */
  private all: Relay<Frame> | null = null;
  private failure: { error: unknown } | null = null;

  constructor(out: Subscriber<R>) {
    super(out);
  }

  lanes(): FrameLanes {
    return {
      inbound$: this.inbound.asObservable(),
      outbound$: this.outbound.asObservable(),
      text$: this.text.asObservable(),
      dtmf$: this.dtmf.asObservable(),
      stop$: this.stopLane.asObservable(),
      all$: new Observable<Frame>((subscriber) => this.allLane().subscribe(subscriber)),
    };
  }

  stop(reason: EndReason): void {
    if (this.ended) return;
    const frame: StopFrame = { kind: 'stop', reason };
    this.all?.next(frame);
    this.stopLane.next(frame);
    this.finish(null);
  }

  protected override _next(f: Frame): void {
    if (this.ended) return;
    if (f.kind === 'stop') return this.stop(f.reason);
    this.all?.next(f);
    switch (f.kind) {
      case 'audio':
        (f.track === 'outbound' ? this.outbound : this.inbound).next(f);
        break;
      case 'text':
        this.text.next(f);
        break;
      case 'dtmf':
        this.dtmf.next(f);
        break;
    }
  }

  protected override _error(e: unknown): void {
    this.finish({ error: e });
  }

  protected override _complete(): void {
    this.stop('closed');
  }

  private finish(failure: { error: unknown } | null): void {
    if (this.ended) return;
    this.ended = true;
    this.failure = failure;
    const lanes = [this.inbound, this.outbound, this.text, this.dtmf, this.stopLane, this.all];
    for (const lane of lanes) endLane(lane, failure);
    this.unsubscribe();
  }

  private allLane(): Relay<Frame> {
    if (!this.all) {
      this.all = new Relay<Frame>();
      if (this.ended) endLane(this.all, this.failure);
    }
    return this.all;
  }
}

function endLane(lane: Relay<unknown> | null, failure: { error: unknown } | null): void {
  if (failure) lane?.error(failure.error);
  else lane?.complete();
}
