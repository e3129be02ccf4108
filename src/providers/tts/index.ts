/* Chooses the honeypot's voice from config.tts (VOICE_TTS): espeak (default), polly, or none. */
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import { createEspeak } from './espeak.js';
import { createPolly } from './polly.js';
import type { TextToSpeech } from './types.js';

export async function createTextToSpeech(config: Config, log: Logger): Promise<TextToSpeech | null> {
  switch (config.tts) {
    case 'none':
      return null;
    case 'polly':
      return createPolly({ voice: config.pollyVoice });
    case 'espeak':
      return createEspeak({ log, eager: true });
  }
}

/** The persona voice this provider speaks with. */
export function voiceFor(tts: TextToSpeech, persona: { tts: { espeak: string; polly: string } }): string {
  return tts.voiceKind === 'polly' ? persona.tts.polly : persona.tts.espeak;
}
