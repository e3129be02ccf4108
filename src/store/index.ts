import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { createEmbeddedStore } from './embedded/index.js';
import type { Store } from './types.js';

export { createEmbeddedStore } from './embedded/index.js';
export type { Store } from './types.js';

/** MongoDB when `MONGODB_URL` is set (a fleet), otherwise the SQLite file in the data dir (one machine). */
export async function openStore(config: Config, log: Logger): Promise<Store> {
  if (config.mongodbUrl) {
    const { connectMongoStore } = await import('./mongo/index.js');
    const store = await connectMongoStore(config.mongodbUrl);
    log.info({ store: 'mongodb' }, 'store opened');
    return store;
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, 'voice.db');
  const store = createEmbeddedStore(file);
  log.info({ store: 'embedded', file }, 'store opened');
  return store;
}
