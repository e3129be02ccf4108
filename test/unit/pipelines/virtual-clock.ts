import { TestScheduler } from 'rxjs/testing';
import { expect } from 'chai';

/**
 * A TestScheduler driven from one due time to the next, letting promises settle in between: the live graph's ports
 * answer with promises (model calls, store writes, the final analysis), and their answers must land
 * at the virtual time they were given, not after the whole run.
 */
export class VirtualClock {
  readonly scheduler = new TestScheduler((a, b) => {
    expect(a).to.deep.equal(b);
  });

  get now(): number {
    return this.scheduler.now();
  }

  /**
   * Runs everything due in the next `ms`, one due time at a time, settling promises after each: a port's
   * answer lands at the virtual time it was given, and whatever it schedules runs from there.
   */
  async advance(ms: number): Promise<void> {
    const target = this.scheduler.frame + ms;
    await settle();
    for (let next = this.nextDue(); next !== null && next <= target; next = this.nextDue()) {
      this.scheduler.maxFrames = next;
      this.scheduler.flush();
      this.scheduler.frame = next;
      await settle();
    }
    this.scheduler.frame = target;
  }

  private nextDue(): number | null {
    return this.scheduler.actions[0]?.delay ?? null;
  }
}

/** Lets chained promise callbacks (and anything they schedule with setImmediate) run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
}
