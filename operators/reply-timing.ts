import { Observable, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import { REPLY_PAUSE_MS } from '../src/domain/limits.js';

/** What decides when the persona answers. */
export type TurnSignal =
  /** A final caller line was heard. */
  | { kind: 'line' }
  /** The client marked the caller's turn as over (`end_of_turn: true`). */
  | { kind: 'end_of_turn' }
  /** The caller is still making sound or interim text: not done yet. */
  | { kind: 'activity' };

/**
 * Emits when the persona should answer: at once when the client says the turn ended, otherwise once the
 * caller has been quiet for `pauseMs` after a final line. Activity while a line waits restarts the pause.
 * An end-of-turn mark that arrives before its line (the two travel separately) answers that line at once.
 */
export function replyTiming(opts: { pauseMs?: number; scheduler: SchedulerLike }): OperatorFunction<TurnSignal, void> {
  const pauseMs = opts.pauseMs ?? REPLY_PAUSE_MS;
  return (source) =>
    new Observable<void>((sub) => {
      let pending = false;
      let endSeen = false;
      let timer: Subscription | null = null;
      const cancel = (): void => {
        timer?.unsubscribe();
        timer = null;
      };
      const fire = (): void => {
        cancel();
        pending = false;
        endSeen = false;
        sub.next();
      };
      const arm = (): void => {
        cancel();
        timer = opts.scheduler.schedule(fire, pauseMs);
      };
      const inner = source.subscribe({
        next: (s) => {
          if (s.kind === 'line') {
            pending = true;
            if (endSeen) fire();
            else arm();
          } else if (s.kind === 'end_of_turn') {
            if (pending) fire();
            else endSeen = true;
          } else if (pending) {
            arm();
          }
        },
        error: (e) => sub.error(e),
        complete: () => sub.complete(),
      });
      return () => {
        cancel();
        inner.unsubscribe();
      };
    });
}
