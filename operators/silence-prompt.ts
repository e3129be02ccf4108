import { Observable, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import { HONEYPOT_MAX_PROMPTS, HONEYPOT_SILENCE_MS } from '../src/domain/limits.js';

/** What the silence clock listens to. */
export type SilenceSignal =
  /** The caller said or sent something. */
  | 'caller'
  /** The persona started talking: nobody expects an answer yet. */
  | 'persona_start'
  /** The persona finished talking: the caller's turn. */
  | 'persona_end';

export type SilenceAction = { kind: 'prompt'; n: number } | { kind: 'hangup' };

/**
 * The honeypot's silence rule: when the caller has been silent for `silenceMs` after the persona finished,
 * the persona prompts ("Hello? Are you still there?"); after `maxPrompts` unanswered prompts the next
 * silence hangs up. Any caller activity resets the count. The clock is paused while the persona talks.
 */
export function silencePrompts(opts: {
  scheduler: SchedulerLike;
  silenceMs?: number;
  maxPrompts?: number;
}): OperatorFunction<SilenceSignal, SilenceAction> {
  const silenceMs = opts.silenceMs ?? HONEYPOT_SILENCE_MS;
  const maxPrompts = opts.maxPrompts ?? HONEYPOT_MAX_PROMPTS;
  return (source) =>
    new Observable<SilenceAction>((sub) => {
      let prompts = 0;
      let talking = false;
      let done = false;
      let timer: Subscription | null = null;
      const arm = (): void => {
        timer?.unsubscribe();
        timer = opts.scheduler.schedule(() => {
          timer = null;
          if (prompts < maxPrompts) {
            prompts += 1;
            sub.next({ kind: 'prompt', n: prompts });
          } else {
            done = true;
            sub.next({ kind: 'hangup' });
            sub.complete();
          }
        }, silenceMs);
      };
      const inner = source.subscribe({
        next: (s) => {
          if (done) return;
          if (s === 'caller') {
            prompts = 0;
            if (!talking) arm();
          } else if (s === 'persona_start') {
            talking = true;
            timer?.unsubscribe();
            timer = null;
          } else {
            talking = false;
            arm();
          }
        },
        error: (e) => sub.error(e),
        complete: () => sub.complete(),
      });
      return () => {
        timer?.unsubscribe();
        inner.unsubscribe();
      };
    });
}
