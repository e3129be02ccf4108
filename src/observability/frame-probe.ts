import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';

/**
 * Benchmark instrumentation: time from an audio frame's arrival on its socket to its hand-off to the
 * recogniser. Off by default, and then the socket path pays one boolean check per frame.
 *
 * The live graph runs synchronously inside the socket's message callback, so the hand-off that follows
 * an arrival belongs to that arrival's frame; an arrival with no hand-off (text, dtmf) is overwritten by
 * the next one.
 *
 * `sampleEvery` > 1 times one frame in that many: the percentiles of a systematic sample of a long run
 * are those of every frame, and the probe's own clock reads stay out of the CPU figures beside them.
 */
export class FrameProbe {
  enabled = false;
  sampleEvery = 1;
  /** Hand-off delays in nanoseconds. */
  readonly handoffNs: RecordableHistogram = createHistogram();
  private arrivedAt = 0;
  private arrivals = 0;

  arrived(): void {
    this.arrivedAt = ++this.arrivals % this.sampleEvery === 0 ? performance.now() : 0;
  }

  handedOff(): void {
    if (this.arrivedAt === 0) return;
    this.handoffNs.record(Math.max(1, Math.round((performance.now() - this.arrivedAt) * 1e6)));
    this.arrivedAt = 0;
  }
}

export const frameProbe = new FrameProbe();
