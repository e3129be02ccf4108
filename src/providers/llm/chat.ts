/*
 * The chat port: free-form replies for the honeypot persona's dialogue.
 * Unlike the scoring port it returns plain text; the persona's system prompt and the running
 * conversation come from the caller of `reply`.
 */
import type { Config } from '../../config.js';
import { createBedrockChat } from './bedrock.js';
import { createOpenAiChat } from './openai.js';

export interface ChatTurn {
  role: 'user' | 'assistant';
  text: string;
}

export interface ChatModel {
  /** `<provider>:<model>`. */
  readonly id: string;
  /** One assistant reply to the conversation so far. Rejects with ProviderError on refusal, timeout or abort. */
  reply(system: string, turns: ChatTurn[], signal: AbortSignal): Promise<string>;
}

export interface ChatOptions {
  /** Upper bound of one reply, in ms (default 8000: a persona must answer before the caller gives up). */
  timeoutMs?: number;
}

/** A generative chat model for the configured provider, or null when the provider is embedded or off. */
export function createChatModel(config: Config, options: ChatOptions = {}): ChatModel | null {
  switch (config.llm) {
    case 'bedrock':
      return createBedrockChat(config, options);
    case 'openai':
      return config.openaiBaseUrl ? createOpenAiChat(config, options) : null;
    default:
      return null;
  }
}
