/*
 * How many calls a node's own recogniser transcribes at once. The decoders are shared, so the limit is
 * CPU, not processes: a call holds a slot while its caller is talking (from its first voiced utterance
 * until its audio ends or it has been silent for a while), and a call that finds every slot taken is
 * told so and admitted when one frees, rather than slowing every call's transcript on the node.
 */
import { Subject, type Observable } from 'rxjs';
import { metrics } from '../../observability/metrics.js';

export interface CallSlots {
  readonly limit: number;
  readonly inUse: number;
  /** A slot, or null when all are taken. The returned function gives it back (once). */
  acquire(): (() => void) | null;
  /** Emits when a slot is given back. */
  readonly freed$: Observable<void>;
}

export function createCallSlots(limit: number): CallSlots {
  let inUse = 0;
  const freed = new Subject<void>();
  metrics.sttCallLimit.set(limit);
  return {
    limit,
    get inUse() {
      return inUse;
    },
    freed$: freed.asObservable(),
    acquire() {
      if (inUse >= limit) return null;
      inUse += 1;
      metrics.sttCalls.set(inUse);
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        inUse -= 1;
        metrics.sttCalls.set(inUse);
        freed.next();
      };
    },
  };
}
