import { map, timer, type Observable, type SchedulerLike } from 'rxjs';
import type { EndReason } from '../src/domain/frames.js';

/** Emits `time_limit` once the session has run its maximum length (60 min filter, 15 min honeypot). */
export function timeLimit(ms: number, scheduler: SchedulerLike): Observable<EndReason> {
  return timer(ms, scheduler).pipe(map((): EndReason => 'time_limit'));
}
