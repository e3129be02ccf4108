/*
 * Model provider selection by VOICE_LLM: `local` (the embedded model, default), `bedrock`,
 * `openai` (an OpenAI-style server at VOICE_OPENAI_BASE_URL) or `none`.
 */
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import { createBedrockProvider, type BedrockOptions } from './bedrock.js';
import { createLocalProvider, type LocalOptions } from './local/provider.js';
import { createOpenAiProvider, type OpenAiOptions } from './openai.js';
import type { ModelProvider } from './types.js';

export type { ModelProvider } from './types.js';
export { ProviderError } from '../errors.js';
export { createChatModel, type ChatModel, type ChatTurn } from './chat.js';

export interface ModelProviderOptions {
  /** Overrides `config.llm` (the evaluation harness's `--llm`). */
  llm?: Config['llm'];
  bedrock?: BedrockOptions;
  openai?: OpenAiOptions;
  local?: LocalOptions;
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
      const provider = createBedrockProvider(config, options.bedrock);
      log.info({ llm: provider.id }, 'model provider: Bedrock Converse');
      return provider;
    }
    case 'openai': {
      if (!config.openaiBaseUrl) {
        log.error('VOICE_LLM=openai needs VOICE_OPENAI_BASE_URL; model scoring is off');
        return null;
      }
      const provider = createOpenAiProvider(config, options.openai);
      log.info({ llm: provider.id, url: config.openaiBaseUrl }, 'model provider: OpenAI-style chat completions');
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
