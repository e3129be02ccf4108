/* Placeholder: the honeypot owner replaces this with the selection by VOICE_TTS. */
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import type { TextToSpeech } from './types.js';

export async function createTextToSpeech(_config: Config, _log: Logger): Promise<TextToSpeech | null> {
  return null;
}
