/*
 * Model and chat provider selection by VOICE_LLM: `local` (the embedded model, default), `bedrock`,
 * `openai` (an OpenAI-style server at VOICE_OPENAI_BASE_URL) or `none`. The only place that reads the
 * app's Config for them: each adapter is handed its own options, mapped here.
 */
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import { createBedrockChat, createBedrockProvider, type BedrockConnection, type BedrockOptions } from './bedrock.js';
import type { ChatModel, ChatOptions } from './chat.js';
import { createLocalProvider, type LocalOptions } from './local/provider.js';
import { createOpenAiChat, createOpenAiProvider, type OpenAiConnection, type OpenAiOptions } from './openai.js';
import type { ModelProvider } from './types.js';

export type { ModelProvider } from './types.js';
export { ProviderError } from '../errors.js';
export type { ChatModel, ChatTurn } from './chat.js';

export interface ModelProviderOptions {
  /** Overrides `config.llm` (the evaluation harness's `--llm`). */
  llm?: Config['llm'];
  /** Settings beyond the configuration's (client, time bounds); the model comes from the configuration. */
  bedrock?: Omit<BedrockOptions, keyof BedrockConnection> & Pick<BedrockConnection, 'client'>;
  openai?: Omit<OpenAiOptions, keyof OpenAiConnection> & Pick<OpenAiConnection, 'fetch'>;
  local?: LocalOptions;
}

/** Bedrock's settings from the configuration (VOICE_BEDROCK_MODEL_ID). */
export function bedrockConnection(config: Config): BedrockConnection {
  return { modelId: config.bedrockModelId };
}

/** The OpenAI-style server from the configuration, or null when VOICE_OPENAI_BASE_URL is unset. */
export function openAiConnection(config: Config): OpenAiConnection | null {
  if (!config.openaiBaseUrl) return null;
  const conn: OpenAiConnection = { baseUrl: config.openaiBaseUrl, model: config.openaiModel };
  if (config.openaiApiKey) conn.apiKey = config.openaiApiKey;
  return conn;
}

export async function createModelProvider(
  config: Config,
  log: Logger,
  options: ModelProviderOptions = {},
): Promise<ModelProvider | null> {
  const which = options.llm ?? config.llm;
  switch (which) {
    case 'none':
      return null;
    case 'bedrock': {
      const provider = createBedrockProvider({ ...options.bedrock, ...bedrockConnection(config) });
      log.info({ llm: provider.id }, 'model provider: Bedrock Converse');
      return provider;
    }
    case 'openai': {
      const conn = openAiConnection(config);
      if (!conn) {
        log.error('VOICE_LLM=openai needs VOICE_OPENAI_BASE_URL; model scoring is off');
        return null;
      }
      const provider = createOpenAiProvider({ ...options.openai, ...conn });
      log.info({ llm: provider.id, url: conn.baseUrl }, 'model provider: OpenAI-style chat completions');
      return provider;
    }
    case 'local': {
      try {
        const provider = createLocalProvider(options.local);
        log.info({ llm: provider.id }, 'model provider: embedded statistical classifier');
        return provider;
      } catch (err) {
        log.error({ err }, 'embedded model could not be loaded; model scoring is off');
        return null;
      }
    }
  }
}

/** A generative chat model for the configured provider, or null when the provider is embedded or off. */
export function createChatModel(config: Config, options: ChatOptions = {}): ChatModel | null {
  switch (config.llm) {
    case 'bedrock':
      return createBedrockChat({ ...options, ...bedrockConnection(config) });
    case 'openai': {
      const conn = openAiConnection(config);
      return conn ? createOpenAiChat({ ...options, ...conn }) : null;
    }
    default:
      return null;
  }
}
