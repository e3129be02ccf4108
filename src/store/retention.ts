/*
 * Retention: sessions (and the transcripts inside them) are personal data the operator must not keep
 * longer than they need. Every node purges the ended sessions older than VOICE_RETENTION_DAYS once an
 * hour; the deletes are idempotent, so nodes of one fleet may overlap. Complaints are not sessions: they
 * stay as long as the number is listed, because the block list is built from them.
 */
import {
  asyncScheduler,
  catchError,
  EMPTY,
  exhaustMap,
  from,
  timer,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import type { Logger } from '../log.js';
import type { Store } from './types.js';

export const PURGE_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Sessions that started before this instant are past retention. */
export function retentionCutoff(nowMs: number, days: number): string {
  return new Date(nowMs - days * DAY_MS).toISOString();
}

/** Purges at once and then hourly until unsubscribed. */
export function startRetention(
  store: Pick<Store, 'sessions'>,
  days: number,
  log: Logger,
  scheduler: SchedulerLike = asyncScheduler,
): Subscription {
  return timer(0, PURGE_EVERY_MS, scheduler)
    .pipe(
      exhaustMap(() => {
        const before = retentionCutoff(scheduler.now(), days);
        return from(store.sessions.purgeEnded(before)).pipe(
          catchError((err: unknown) => {
            log.warn({ err }, 'retention purge failed; trying again within the hour');
            return EMPTY;
          }),
        );
      }),
    )
    .subscribe((purged) => {
      if (purged > 0) log.info({ purged, days }, 'sessions past retention purged');
    });
}
