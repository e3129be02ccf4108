import { from, Observable, type ObservableInput, type OperatorFunction, type Subscriber } from 'rxjs';
import { Relay } from '../src/util/relay.js';
import type { AudioFrame, DtmfFrame, Frame, StopFrame, TextFrame } from '../src/domain/frames.js';
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
 * Like `connect`, but routing: each frame goes once, by its kind, to the one lane that wants it,
 * instead of being multicast to every branch for each to filter out what it does not want. The
 * selector builds the graph from the lanes; its output is the result. The source is subscribed after
 * the selector's output, so no frame is missed.
 */
export function routeFrames<R>(selector: (lanes: FrameLanes) => ObservableInput<R>): OperatorFunction<Frame, R> {
  return (frames$) =>
    new Observable<R>((out) => {
      const lanes: LaneRelays = {
        inbound: new Relay<AudioFrame>(),
        outbound: new Relay<AudioFrame>(),
        text: new Relay<TextFrame>(),
        dtmf: new Relay<DtmfFrame>(),
        stop: new Relay<StopFrame>(),
        all: new Relay<Frame>(),
      };
      from(
        selector({
          inbound$: lanes.inbound.asObservable(),
          outbound$: lanes.outbound.asObservable(),
          text$: lanes.text.asObservable(),
          dtmf$: lanes.dtmf.asObservable(),
          stop$: lanes.stop.asObservable(),
          all$: lanes.all.asObservable(),
        }),
      ).subscribe(out);
      // Last, so that no frame is missed; the route's subscriber is tied to `out`, so it ends with it.
      frames$.subscribe(new RouteSubscriber(out, lanes));
    });
}

interface LaneRelays {
  inbound: Relay<AudioFrame>;
  outbound: Relay<AudioFrame>;
  text: Relay<TextFrame>;
  dtmf: Relay<DtmfFrame>;
  stop: Relay<StopFrame>;
  all: Relay<Frame>;
}

/**
 * The source's subscriber: frames go to the lanes, and the source's end ends every lane. The operator's
 * output is the selector's, so only its unsubscription passes here; completion and errors do not.
 *
 * The lanes are this object's own fields rather than one shared record: one object fewer for every
 * frame to reach (see Relay on cache misses).
 */
class RouteSubscriber<R> extends FrameSubscriber<Frame, R> {
  private readonly inbound: Relay<AudioFrame>;
  private readonly outbound: Relay<AudioFrame>;
  private readonly text: Relay<TextFrame>;
  private readonly dtmf: Relay<DtmfFrame>;
  private readonly stop: Relay<StopFrame>;
  private readonly all: Relay<Frame>;

  constructor(out: Subscriber<R>, lanes: LaneRelays) {
    super(out);
    this.inbound = lanes.inbound;
    this.outbound = lanes.outbound;
    this.text = lanes.text;
    this.dtmf = lanes.dtmf;
    this.stop = lanes.stop;
    this.all = lanes.all;
  }

  protected override _next(f: Frame): void {
    this.all.next(f);
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
      case 'stop':
        this.stop.next(f);
        break;
    }
  }

  protected override _error(e: unknown): void {
    for (const lane of this.lanes()) lane.error(e);
    this.unsubscribe();
  }

  protected override _complete(): void {
    for (const lane of this.lanes()) lane.complete();
    this.unsubscribe();
  }

  private lanes(): Relay<unknown>[] {
    return [this.inbound, this.outbound, this.text, this.dtmf, this.stop, this.all] as Relay<unknown>[];
  }
}
