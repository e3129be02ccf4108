import { Observable, type Subscriber } from 'rxjs';

/**
 * A hot source that passes each value to its current subscribers: a Subject without the per-value costs of
 * RxJS's Node build (an error-context closure and an iterator object per `next`), for paths that carry
 * every 20 ms frame of every call. Subscribing after the end delivers the end at once.
 */
export class Relay<T> extends Observable<T> {
  private subscribers: Subscriber<T>[] = [];
  private ended: { failed: boolean; error?: unknown } | null = null;

  constructor() {
    super((subscriber) => {
      if (this.ended) {
        if (this.ended.failed) subscriber.error(this.ended.error);
        else subscriber.complete();
        return;
      }
      this.subscribers = [...this.subscribers, subscriber];
      return () => {
        this.subscribers = this.subscribers.filter((s) => s !== subscriber);
      };
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
    return this.subscribers.length > 0;
  }

  next(value: T): void {
    // The array is replaced, never changed, on (un)subscribe: this loop sees a stable list.
    const subs = this.subscribers;
    for (let i = 0; i < subs.length; i++) subs[i]!.next(value);
  }

  error(err: unknown): void {
    this.end({ failed: true, error: err });
  }

  complete(): void {
    this.end({ failed: false });
  }

  private end(how: { failed: boolean; error?: unknown }): void {
    if (this.ended) return;
    this.ended = how;
    const subs = this.subscribers;
    this.subscribers = [];
    for (const s of subs) {
      if (how.failed) s.error(how.error);
      else s.complete();
    }
  }
}
