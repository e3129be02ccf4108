/**
 * Runs jobs one per turn of the event loop (each in its own `setImmediate`), in order. A burst of heavy
 * jobs queued together — a group commit resolving fifty session starts at once, each building its graph —
 * would otherwise run back to back and hold the loop for all fifty; here the socket reads and timers of
 * the calls already live run between two of them.
 */
export class TurnQueue {
  private readonly jobs: Array<() => void> = [];
  private scheduled = false;

  /** `onError`: where a job's exception goes (it never stops the queue or reaches the loop). */
  constructor(private readonly onError: (err: unknown) => void) {}

  push(job: () => void): void {
    this.jobs.push(job);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.runOne);
    }
  }

  get size(): number {
    return this.jobs.length;
  }

  private readonly runOne = (): void => {
    try {
      this.jobs.shift()!();
    } catch (err) {
      this.onError(err);
    }
    if (this.jobs.length > 0) setImmediate(this.runOne);
    else this.scheduled = false;
  };
}
