import type { MonoTypeOperatorFunction, SchedulerLike } from 'rxjs';
import { startTimeout } from '../operators/start-timeout.js';
import type { SessionKind } from '../src/domain/events.js';
import { LIVE_PROFILES } from './live/profile.js';

/*
 * The live start deadline as the socket entry points apply it. Timing operators belong to the pipelines;
 * entry points reach this one through here, so how the deadline is kept can change without touching them.
 */

/** The spec's deadline for a kind's start message (15 s filter, 10 s honeypot). */
export function startDeadlineMs(kind: SessionKind): number {
  return LIVE_PROFILES[kind].startTimeoutMs;
}

/** Passes the first start signal and completes, or errors when `ms` pass on `scheduler` without one. */
export function startDeadline<T>(ms: number, scheduler: SchedulerLike): MonoTypeOperatorFunction<T> {
  return startTimeout<T>(ms, scheduler);
}
