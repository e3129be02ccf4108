/*
 * Speech-to-text selection by VOICE_STT: `aws` (Transcribe Streaming), `whisper` (an OpenAI-style
 * server at VOICE_WHISPER_URL, with VOICE_WHISPER_MODEL and VOICE_WHISPER_API_KEY), `sphinx` (PocketSphinx, embedded), `none`, or `auto` (the default:
 * PocketSphinx when it is installed, otherwise none). Without a recogniser the service runs on text.
 * `replay` is for benchmarks and tests only: scripted utterances at fixed audio offsets, nothing heard.
 */
import { ConfigError, type Config } from '../../config.js';
import type { Logger } from '../../log.js';
import { createAwsTranscribe, type AwsTranscribeOptions } from './aws.js';
import { createReplay } from './replay.js';
import { createSphinx, detectSphinx, SPEED_ARGS } from './sphinx.js';
import type { SpeechToText } from './types.js';
import { createWhisper } from './whisper.js';

export type { SpeechToText, SttOptions, SttResult } from './types.js';

export interface SpeechToTextOptions {
  aws?: AwsTranscribeOptions;
}

export async function createSpeechToText(
  config: Config,
  log: Logger,
  options: SpeechToTextOptions = {},
): Promise<SpeechToText | null> {
  switch (config.stt) {
    case 'none':
      log.info('speech-to-text off: audio is not transcribed (text only)');
      return null;
    case 'aws': {
      const stt = createAwsTranscribe(log, options.aws);
      log.info({ stt: stt.id }, 'speech-to-text: AWS Transcribe Streaming');
      return stt;
    }
    case 'whisper': {
      if (!config.whisperUrl) {
        log.error('VOICE_STT=whisper needs VOICE_WHISPER_URL; audio is not transcribed (text only)');
        return null;
      }
      const stt = createWhisper({
        url: config.whisperUrl,
        model: config.whisperModel,
        ...(config.whisperApiKey ? { apiKey: config.whisperApiKey } : {}),
      });
      log.info({ stt: stt.id, url: config.whisperUrl }, 'speech-to-text: OpenAI-style transcription server');
      return stt;
    }
    case 'replay': {
      const stt = createReplay();
      log.warn({ stt: stt.id }, 'speech-to-text: scripted replay (benchmarks and tests only; audio is not heard)');
      return stt;
    }
    case 'sphinx':
    case 'auto': {
      const install = detectSphinx();
      // Chosen explicitly, it must work; `auto` falls back to text only and says so (log, capabilities).
      if (!install && config.stt === 'sphinx')
        throw new ConfigError('VOICE_STT', 'sphinx: PocketSphinx (pocketsphinx, pocketsphinx-en-us) is not installed');
      if (!install) {
        log.warn(
          'PocketSphinx (pocketsphinx, pocketsphinx-en-us) is not installed; audio is not transcribed (text only)',
        );
        return null;
      }
      const stt = createSphinx(install, log, {
        maxCalls: config.sttMaxCalls,
        ...(config.sphinxSearch === 'fast' ? { searchArgs: SPEED_ARGS } : {}),
      });
      log.info(
        { stt: stt.id, binary: install.batchBinary, max_calls: config.sttMaxCalls, search: config.sphinxSearch },
        'speech-to-text: PocketSphinx (embedded)',
      );
      return stt;
    }
  }
}
