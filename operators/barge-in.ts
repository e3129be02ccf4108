import { Observable, type OperatorFunction } from 'rxjs';
import { VOICE_RMS_THRESHOLD } from '../src/domain/limits.js';

/** Signs of the caller talking: transcript text (final or interim) or a level reading of one audio frame. */
export type CallerActivity = { kind: 'text' } | { kind: 'voice'; rms: number; ms: number };

export interface BargeInOptions {
  /** RMS (16-bit PCM) above which a frame counts as voice. */
  threshold?: number;
  /** Voice must last this long before it counts as an interruption (a cough or click does not). */
  minVoiceMs?: number;
}

/**
 * Emits each time the caller starts talking: any transcript text at once, or audio louder than the
 * threshold for `minVoiceMs` in a row. One emission per stretch of voice; quiet frames re-arm it.
 */
export function bargeIn(opts: BargeInOptions = {}): OperatorFunction<CallerActivity, void> {
  const threshold = opts.threshold ?? VOICE_RMS_THRESHOLD;
  const minMs = opts.minVoiceMs ?? 60;
  return (source) =>
    new Observable<void>((sub) => {
      let voiced = 0;
      let fired = false;
      return source.subscribe({
        next: (a) => {
          if (a.kind === 'text') {
            sub.next();
            return;
          }
          if (a.rms >= threshold) {
            voiced += a.ms;
            if (!fired && voiced >= minMs) {
              fired = true;
              sub.next();
            }
          } else {
            voiced = 0;
            fired = false;
          }
        },
        error: (e) => sub.error(e),
        complete: () => sub.complete(),
      });
    });
}
