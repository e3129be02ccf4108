/* Placeholder: the store owner replaces this with the embedded/MongoDB selection. */
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { Store } from './types.js';

export async function openStore(_config: Config, _log: Logger): Promise<Store> {
  throw new Error('store not built yet');
}
