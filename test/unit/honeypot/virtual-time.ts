import { VirtualTimeScheduler } from 'rxjs';

/**
 * Virtual time that also lets promises settle: advances in small steps, running due actions, then
 * yielding to the event loop so async providers (fake TTS, dialogue) resolve between steps.
 */
export class SteppedClock {
  readonly scheduler = new VirtualTimeScheduler();

  get now(): number {
    return this.scheduler.now();
  }

  async advance(ms: number, step = 20): Promise<void> {
    const target = this.scheduler.frame + ms;
    while (this.scheduler.frame < target) {
      await settle();
      this.scheduler.maxFrames = Math.min(target, this.scheduler.frame + step);
      this.scheduler.flush();
      if (this.scheduler.frame < this.scheduler.maxFrames) this.scheduler.frame = this.scheduler.maxFrames;
    }
    await settle();
    this.scheduler.maxFrames = target;
    this.scheduler.flush();
  }
}

export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
}
