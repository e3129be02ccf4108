import { VirtualAction, VirtualTimeScheduler } from 'rxjs';

/**
 * Virtual time for a real server: the session timers (start timeout, credit minutes, time limit,
 * final-analysis bound) run on this scheduler and move only when a test advances it, while
 * sockets and the store stay real. Between steps the event loop settles the store's promises.
 */
export class VirtualClock {
  readonly scheduler = new VirtualTimeScheduler(VirtualAction, Infinity);

  /** Runs every timer due up to `ms` (absolute virtual time), then lets I/O settle. */
  async advanceTo(ms: number): Promise<void> {
    this.scheduler.maxFrames = ms;
    this.scheduler.flush();
    await settle();
    // Work started by those timers (debits, ends) may schedule and resolve more: one more pass.
    this.scheduler.flush();
    await settle();
  }
}

export async function settle(ms = 50): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}
