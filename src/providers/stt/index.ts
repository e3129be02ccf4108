/* Placeholder: the speech owner replaces this with the selection by VOICE_STT. */
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import type { SpeechToText } from './types.js';

export async function createSpeechToText(_config: Config, _log: Logger): Promise<SpeechToText | null> {
  return null;
}
