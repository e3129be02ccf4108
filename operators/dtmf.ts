import { filter, scan, type OperatorFunction } from 'rxjs';
import type { DtmfFrame, Frame } from '../src/domain/frames.js';

/** Key presses collected in order: emits the digits so far after each press (`intel.dtmf`). */
export function collectDtmf(): OperatorFunction<Frame, string> {
  return (frames$) =>
    frames$.pipe(
      filter((f): f is DtmfFrame => f.kind === 'dtmf'),
      scan((digits, f) => digits + f.digit, ''),
    );
}
