/* Placeholder: the model-provider owner replaces this with the selection by VOICE_LLM. */
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import type { ModelProvider } from './types.js';

export async function createModelProvider(_config: Config, _log: Logger): Promise<ModelProvider | null> {
  return null;
}
