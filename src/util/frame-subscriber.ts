import { Subscriber } from 'rxjs';

/**
 * The base of the subscribers on the per-frame path (every 20 ms frame of every call passes them):
 * an operator written as a Subscriber subclass, the way RxJS 7's own operators are (`OperatorSubscriber`).
 *
 * Subscribing with an observer object costs each frame two extra calls (RxJS wraps the object in a
 * SafeSubscriber around a ConsumerObserver) and a megamorphic property load, since every observer
 * literal in the program has its own shape; handed a Subscriber, an Observable calls it directly. A
 * frame crosses several such steps between the socket and the recogniser: written this way they cost about
 * half of what they did (bench/graph.ts, bench/RESULTS.md). Only hot paths use this; everything else
 * subscribes with plain observers.
 *
 * `out` is the operator's output and this subscriber's destination: unsubscribing it ends this one, and
 * errors and completion pass to it unless a subclass overrides `_error` / `_complete`.
 */
export abstract class FrameSubscriber<T, R> extends Subscriber<T> {
  protected constructor(protected readonly out: Subscriber<R>) {
    super(out);
  }

  protected abstract override _next(value: T): void;
}
