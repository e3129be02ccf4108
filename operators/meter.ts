import {
  concatMap,
  filter,
  from,
  interval,
  map,
  take,
  type Observable,
  type ObservableInput,
  type SchedulerLike,
} from 'rxjs';
import type { EndReason } from '../src/domain/frames.js';
import { BILLING_MINUTE_MS } from '../src/domain/limits.js';

/**
 * The credit meter. The first minute is charged when the session starts; this charges every
 * further started minute (at 1:00, 2:00, …) and emits `credits` once a debit is refused, which
 * ends the session. Debits run one after another, never overlapping.
 */
export function meter(opts: {
  debit: () => ObservableInput<boolean>;
  scheduler: SchedulerLike;
  periodMs?: number;
  /** Charges after the first that the session can ever owe (its time limit); a tick at the limit itself is not a started minute. */
  maxCharges?: number;
}): Observable<EndReason> {
  return interval(opts.periodMs ?? BILLING_MINUTE_MS, opts.scheduler).pipe(
    take(opts.maxCharges ?? Infinity),
    concatMap(() => from(opts.debit())),
    filter((charged) => !charged),
    take(1),
    map((): EndReason => 'credits'),
  );
}
