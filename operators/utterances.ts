import { filter, map, type OperatorFunction, type SchedulerLike } from 'rxjs';
import type { Frame, TextFrame, Utterance } from '../src/domain/frames.js';

/**
 * Final client transcript lines → utterances. Interim results (`final: false`) and empty text are
 * dropped: they are neither scored nor stored. The inbound track is the caller; the outbound track
 * is the called party (`callee`), whose words are never scored as the caller's.
 */
export function textUtterances(scheduler: SchedulerLike): OperatorFunction<Frame, Utterance> {
  return (frames$) =>
    frames$.pipe(
      filter((f): f is TextFrame => f.kind === 'text' && f.final && f.text.trim() !== ''),
      map((f) =>
        f.track === 'outbound'
          ? { role: 'callee', speaker: 'callee', text: f.text.trim(), at: scheduler.now() }
          : { role: 'caller', speaker: 'caller', text: f.text.trim(), at: scheduler.now() },
      ),
    );
}
