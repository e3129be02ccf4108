import { exhaustMap, from, interval, type SchedulerLike, type Subscription } from 'rxjs';
import { leaseTickMs, leaseUntil } from '../domain/lease.js';
import type { Logger } from '../log.js';
import { closeExpired } from '../store/orphans.js';
import type { SessionsPort } from '../store/types.js';

export interface LeaseOptions {
  sessions: SessionsPort;
  /** Ids of the sessions this node runs now. */
  live: () => readonly string[];
  leaseMs: number;
  scheduler: SchedulerLike;
  log: Logger;
}

/**
 * Every third of a lease: renews this node's live sessions, then ends any node's sessions whose lease ran
 * out. Renewing first keeps a node that was briefly cut off from closing its own calls. A tick still
 * running (a slow store) makes the next one skip rather than pile up.
 */
export function holdLeases(opts: LeaseOptions): Subscription {
  const { sessions, scheduler, log, leaseMs } = opts;
  const tick = async (): Promise<void> => {
    const now = scheduler.now();
    const ids = opts.live();
    try {
      await sessions.renewLeases(ids, leaseUntil(now, leaseMs));
    } catch (err) {
      log.warn({ err, sessions: ids.length }, 'renewing session leases failed');
    }
    try {
      const closed = await closeExpired({ sessions }, new Date(now));
      if (closed.length > 0)
        log.warn(
          { sessions: closed.map((s) => s.id), nodes: [...new Set(closed.map((s) => s.node_id))] },
          'ended sessions whose node stopped renewing their lease',
        );
    } catch (err) {
      log.warn({ err }, 'closing sessions with expired leases failed');
    }
  };
  return interval(leaseTickMs(leaseMs), scheduler)
    .pipe(exhaustMap(() => from(tick())))
    .subscribe();
}
