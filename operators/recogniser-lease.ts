import { Observable, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import type { CallSlots } from '../src/providers/stt/call-slots.js';

export interface LeaseOptions {
  slots: CallSlots;
  scheduler: SchedulerLike;
  /** A slot held this long without a new utterance goes back (the caller stopped talking). */
  idleMs: number;
  /** Speech kept while the call waits for a slot, in samples; older utterances beyond it are dropped. */
  backlogSamples: number;
  /** The first utterance of a wait found every slot taken. */
  onRefused(): void;
  /** A waiting call got a slot: `held` utterances it kept go first, `dropped` were lost to the cap. */
  onAdmitted(held: number, dropped: number): void;
  /** The audio ended while the call was still waiting. */
  onGaveUp(dropped: number): void;
}

/**
 * Utterances → the same utterances, passed on only while the call holds a recogniser slot. The slot
 * is taken on the first utterance (so a call that never speaks, or only sends text, takes none) and
 * given back when the audio ends or the caller has been silent for `idleMs`. A call that finds every
 * slot taken keeps its latest speech and is admitted, oldest first, as soon as a slot frees.
 */
export function recogniserLease(opts: LeaseOptions): OperatorFunction<Int16Array, Int16Array> {
  return (utterances$) =>
    new Observable<Int16Array>((out) => {
      let release: (() => void) | null = null;
      let idle: Subscription | null = null;
      let waiting: Subscription | null = null;
      const held: Int16Array[] = [];
      let heldSamples = 0;
      let dropped = 0;

      const letGo = (): void => {
        idle?.unsubscribe();
        idle = null;
        release?.();
        release = null;
      };
      const armIdle = (): void => {
        idle?.unsubscribe();
        idle = opts.scheduler.schedule(letGo, opts.idleMs);
      };
      const admit = (): boolean => {
        release = opts.slots.acquire();
        if (!release) return false;
        waiting?.unsubscribe();
        waiting = null;
        if (held.length || dropped) opts.onAdmitted(held.length, dropped);
        for (const u of held.splice(0)) out.next(u);
        heldSamples = 0;
        dropped = 0;
        armIdle();
        return true;
      };
      const hold = (u: Int16Array): void => {
        held.push(u);
        heldSamples += u.length;
        while (heldSamples > opts.backlogSamples && held.length > 1) {
          heldSamples -= held.shift()!.length;
          dropped += 1;
        }
        if (waiting) return;
        opts.onRefused();
        waiting = opts.slots.freed$.subscribe(() => {
          if (!release) admit();
        });
      };

      const sub = utterances$.subscribe({
        next(u) {
          if (release) {
            out.next(u);
            armIdle();
          } else if (!waiting && admit()) {
            out.next(u);
          } else {
            hold(u);
          }
        },
        error: (e: unknown) => out.error(e),
        complete() {
          if (held.length && !release && !admit()) opts.onGaveUp(held.length + dropped);
          out.complete();
        },
      });
      return () => {
        sub.unsubscribe();
        waiting?.unsubscribe();
        letGo();
      };
    });
}
