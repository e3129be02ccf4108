/**
 * Why the scan's audio stage gave no utterances. The stage knows nothing of HTTP: the route (and the
 * command line) decide what each kind means to a client.
 *
 * - `bad_audio`: the upload itself cannot be read (empty, malformed, an unknown format): the client's fault.
 * - `unavailable`: this deployment cannot do it (no speech-to-text, no ffmpeg for a compressed upload).
 * - `too_long`: this node's own recogniser cannot transcribe the recording before the scan's time-out.
 * - `failed`: the recogniser failed while transcribing.
 */
export type ScanAudioFailure = 'bad_audio' | 'unavailable' | 'too_long' | 'failed';

export class ScanAudioError extends Error {
  constructor(
    readonly kind: ScanAudioFailure,
    message: string,
  ) {
    super(message);
    this.name = 'ScanAudioError';
  }
}
