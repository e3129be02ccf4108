/*
 * What a node refuses to start with. A setting the operator chose explicitly either works at boot or stops
 * the node with one line naming the variable: a node that serves degraded while its health check stays
 * green is worse than one that does not start. `auto` settings (VOICE_STT=auto) may still degrade; they say
 * so in the log and in the capabilities.
 */
import fs from 'node:fs';
import { ConfigError, type Config } from './config.js';
import type { ModelProvider } from './providers/llm/types.js';
import type { TextToSpeech } from './providers/tts/types.js';

/** Settings that are incomplete on their own (no I/O): checked before anything is opened. */
export function checkSettings(config: Config): void {
  if (config.stt === 'whisper' && !config.whisperUrl)
    throw new ConfigError('VOICE_WHISPER_URL', 'required when VOICE_STT=whisper');
  if (config.llm === 'openai' && !config.openaiBaseUrl)
    throw new ConfigError('VOICE_OPENAI_BASE_URL', 'required when VOICE_LLM=openai');
  if (config.llm === 'local' && config.modelFile) {
    try {
      fs.accessSync(config.modelFile, fs.constants.R_OK);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
      throw new ConfigError('VOICE_MODEL_FILE', `cannot read the model file ${config.modelFile} (${code})`);
    }
  }
}

/** The embedded model chosen (VOICE_LLM=local, the default) but not loaded: the factory logged why. */
export function checkModel(config: Config, llm: ModelProvider | null): void {
  if (config.llm !== 'local' || llm) return;
  if (config.modelFile)
    throw new ConfigError('VOICE_MODEL_FILE', `the model in ${config.modelFile} could not be loaded (see the log)`);
  throw new ConfigError(
    'VOICE_LLM',
    'local: the embedded model could not be loaded (run `npm run train`, or set VOICE_LLM=none for rules only)',
  );
}

/** Long enough for a cold engine on a busy machine; a working one answers in well under a second. */
const VOICE_PROBE_MS = 15_000;

/**
 * With the honeypot on, its voice must speak before the node takes calls: one short synthesis, so an
 * engine that cannot start stops the boot instead of every honeypot call going silent.
 */
export async function checkVoice(config: Config, tts: TextToSpeech | null, voice: string): Promise<void> {
  if (!config.features.has('honeypot') || !tts || tts.voiceKind !== 'espeak') return;
  const signal = AbortSignal.timeout(VOICE_PROBE_MS);
  try {
    const audio = await tts.synthesize('Hello.', voice, signal);
    if (audio.pcm.length === 0) throw new Error('the engine produced no audio');
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new ConfigError(
      'VOICE_TTS',
      `espeak cannot speak while the honeypot is on (${why}); set VOICE_TTS=none or turn the honeypot off in VOICE_FEATURES`,
    );
  }
}
