import { take, throwError, timeout, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs';

export class StartTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`no start message within ${ms / 1000} s`);
    this.name = 'StartTimeoutError';
  }
}

/**
 * The start message must arrive within the start timeout (15 s filter, 10 s honeypot): passes the
 * first value and completes, or errors with `StartTimeoutError` when the time runs out first.
 */
export function startTimeout<T>(ms: number, scheduler: SchedulerLike): MonoTypeOperatorFunction<T> {
  return (source) =>
    source.pipe(take(1), timeout({ first: ms, scheduler, with: () => throwError(() => new StartTimeoutError(ms)) }));
}
