import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';

/**
 * Benchmark instrumentation: time from an audio frame's arrival on its socket to its hand-off to the
 * recogniser. Off by default, and then the socket path pays one boolean check per frame.
 *
 * The live graph runs synchronously inside the socket's message callback, so the hand-off that follows
 * an arrival belongs to that arrival's frame; an arrival with no hand-off (text, dtmf) is overwritten by
 * the next one.
 */
export class FrameProbe {
  enabled = false;
  /** Hand-off delays in nanoseconds. */
  readonly handoffNs: RecordableHistogram = createHistogram();
  private arrivedAt = 0;

  arrived(): void {
    this.arrivedAt = performance.now();
  }

  handedOff(): void {
    if (this.arrivedAt === 0) return;
    this.handoffNs.record(Math.max(1, Math.round((performance.now() - this.arrivedAt) * 1e6)));
    this.arrivedAt = 0;
  }
}

export const frameProbe = new FrameProbe();
