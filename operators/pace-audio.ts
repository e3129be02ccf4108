import { Observable, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import type { OutboundFrame } from '../src/domain/frames.js';

/** One utterance of persona audio, already in the client's encoding and rate. */
export interface Clip {
  name: string;
  data: Uint8Array;
}

export interface PaceOptions {
  scheduler: SchedulerLike;
  /** Bytes in one frame of `frameMs` at the client's encoding and rate. */
  frameBytes: number;
  frameMs?: number;
  /** Frames sent at once when playback starts, so the client's jitter buffer does not run dry. */
  leadFrames?: number;
  /** Caller interruptions: drop what is queued and tell the client to `clear`. */
  interrupt$?: Observable<unknown>;
}

/**
 * Plays clips out in real time: `frameMs` frames on the scheduler, one clip after another, a `mark`
 * (named after the clip) when a clip has been sent. An interruption while audio is queued or playing
 * emits `clear` and drops the rest; an interruption in silence does nothing.
 */
export function paceAudio(opts: PaceOptions): OperatorFunction<Clip, OutboundFrame> {
  const frameMs = opts.frameMs ?? 20;
  const lead = opts.leadFrames ?? 3;
  const size = Math.max(1, opts.frameBytes);
  return (source) =>
    new Observable<OutboundFrame>((sub) => {
      const queue: Clip[] = [];
      let current: { clip: Clip; offset: number } | null = null;
      let ticking: Subscription | null = null;
      let sourceDone = false;

      const stop = (): void => {
        ticking?.unsubscribe();
        ticking = null;
      };
      const sendOne = (): boolean => {
        if (!current) {
          const next = queue.shift();
          if (!next) return false;
          current = { clip: next, offset: 0 };
        }
        const { clip } = current;
        if (current.offset < clip.data.length) {
          sub.next({ kind: 'audio', data: clip.data.subarray(current.offset, current.offset + size) });
          current.offset += size;
        }
        if (current.offset >= clip.data.length) {
          sub.next({ kind: 'mark', name: clip.name });
          current = null;
        }
        return true;
      };
      const tick = (): void => {
        if (!sendOne() || (!current && queue.length === 0)) {
          stop();
          if (sourceDone) sub.complete();
        }
      };
      const start = (): void => {
        if (ticking) return;
        for (let i = 0; i < lead; i++) if (!sendOne()) break;
        if (!current && queue.length === 0) {
          if (sourceDone) sub.complete();
          return;
        }
        let prev = opts.scheduler.now();
        // Re-arm from the scheduled time, not from "now", so pacing does not drift late.
        ticking = opts.scheduler.schedule(function (this: { schedule(s?: unknown, d?: number): void }) {
          tick();
          if (ticking) {
            const now = opts.scheduler.now();
            const late = Math.max(0, now - (prev + frameMs));
            prev += frameMs;
            this.schedule(undefined, Math.max(0, frameMs - late));
          }
        }, frameMs);
      };

      const interrupt = opts.interrupt$?.subscribe(() => {
        if (!current && queue.length === 0) return;
        current = null;
        queue.length = 0;
        stop();
        sub.next({ kind: 'clear' });
        if (sourceDone) sub.complete();
      });
      const inner = source.subscribe({
        next: (clip) => {
          if (clip.data.length === 0) return;
          queue.push(clip);
          start();
        },
        error: (e) => sub.error(e),
        complete: () => {
          sourceDone = true;
          if (!ticking && !current && queue.length === 0) sub.complete();
        },
      });
      return () => {
        stop();
        interrupt?.unsubscribe();
        inner.unsubscribe();
      };
    });
}
