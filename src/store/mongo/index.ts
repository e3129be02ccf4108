import type { Store } from '../types.js';

export async function connectMongoStore(_url: string): Promise<Store> {
  throw new Error('MongoDB store not available in this build');
}
