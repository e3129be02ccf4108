import { from, Observable, type ObservableInput, type OperatorFunction } from 'rxjs';
import { Relay } from '../src/util/relay.js';
import type { AudioFrame, DtmfFrame, Frame, StopFrame, TextFrame } from '../src/domain/frames.js';

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
      const lanes = {
        inbound: new Relay<AudioFrame>(),
        outbound: new Relay<AudioFrame>(),
        text: new Relay<TextFrame>(),
        dtmf: new Relay<DtmfFrame>(),
        stop: new Relay<StopFrame>(),
        all: new Relay<Frame>(),
      };
      const relays = Object.values(lanes) as Relay<unknown>[];
      const sub = from(
        selector({
          inbound$: lanes.inbound.asObservable(),
          outbound$: lanes.outbound.asObservable(),
          text$: lanes.text.asObservable(),
          dtmf$: lanes.dtmf.asObservable(),
          stop$: lanes.stop.asObservable(),
          all$: lanes.all.asObservable(),
        }),
      ).subscribe(out);
      sub.add(
        frames$.subscribe({
          next: (f) => {
            lanes.all.next(f);
            switch (f.kind) {
              case 'audio':
                (f.track === 'outbound' ? lanes.outbound : lanes.inbound).next(f);
                break;
              case 'text':
                lanes.text.next(f);
                break;
              case 'dtmf':
                lanes.dtmf.next(f);
                break;
              case 'stop':
                lanes.stop.next(f);
                break;
            }
          },
          error: (e: unknown) => {
            for (const s of relays) s.error(e);
          },
          complete: () => {
            for (const s of relays) s.complete();
          },
        }),
      );
      return sub;
    });
}
