import { Observable, type Subscriber } from 'rxjs';

const NONE: readonly never[] = [];

/**
 * A hot source that passes each value to its current subscribers: a Subject without the per-value costs of
 * RxJS's Node build (an error-context closure and an iterator object per `next`), for paths that carry
 * every 20 ms frame of every call. Subscribing after the end delivers the end at once.
 *
 * The first subscriber has a field of its own, and only later ones go in an array: a relay on the frame
 * path has one subscriber, and at a thousand calls every object a frame touches is a cache miss (the array
 * and its backing store were two of them, about a twentieth of the node's CPU in `perf`).
 */
export class Relay<T> extends Observable<T> {
  private first: Subscriber<T> | null = null;
  /** The subscribers after the first; replaced, never changed, on (un)subscribe. */
  private rest: readonly Subscriber<T>[] = NONE;
  private ended: { failed: boolean; error?: unknown } | null = null;

  constructor() {
    super((subscriber) => {
      if (this.ended) {
        if (this.ended.failed) subscriber.error(this.ended.error);
        else subscriber.complete();
        return;
      }
      if (this.first === null) this.first = subscriber;
      else this.rest = [...this.rest, subscriber];
      return () => this.remove(subscriber);
    });
  }

  /** The relay as a plain Observable, so consumers cannot push into it. */
  asObservable(): Observable<T> {
    return new Observable<T>((subscriber) => this.subscribe(subscriber));
  }

  /** True once it has completed or errored. */
  get closed(): boolean {
    return this.ended !== null;
  }

  get observed(): boolean {
    return this.first !== null;
  }

  next(value: T): void {
    // Both read before any delivery: a subscriber that leaves (or joins) meanwhile changes neither.
    const first = this.first;
    const rest = this.rest;
    if (first === null) return;
    first.next(value);
    for (let i = 0; i < rest.length; i++) rest[i]!.next(value);
  }

  error(err: unknown): void {
    this.end({ failed: true, error: err });
  }

  complete(): void {
    this.end({ failed: false });
  }

  private remove(subscriber: Subscriber<T>): void {
    if (this.first === subscriber) {
      this.first = this.rest[0] ?? null;
      this.rest = this.rest.length > 1 ? this.rest.slice(1) : NONE;
    } else {
      const rest = this.rest.filter((s) => s !== subscriber);
      this.rest = rest.length > 0 ? rest : NONE;
    }
  }

  private end(how: { failed: boolean; error?: unknown }): void {
    if (this.ended) return;
    this.ended = how;
    const subs = this.first ? [this.first, ...this.rest] : [];
    this.first = null;
    this.rest = NONE;
    for (const s of subs) {
      if (how.failed) s.error(how.error);
      else s.complete();
    }
  }
}
