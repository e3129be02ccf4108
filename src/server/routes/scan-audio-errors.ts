import { ScanAudioError } from '../../../pipelines/scan/audio-error.js';
import { HttpError } from '../types.js';

/**
 * The scan audio stage's failures as the API answers them: unreadable audio is the client's (400); a
 * deployment that cannot transcribe it, or a recogniser that failed or would take too long, is ours (502).
 * Anything else (an abort's own reason, a defect) passes through unchanged.
 */
export function scanAudioHttpError(e: unknown): unknown {
  if (!(e instanceof ScanAudioError)) return e;
  return new HttpError(e.kind === 'bad_audio' ? 400 : 502, e.message);
}
