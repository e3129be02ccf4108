import { createHash, timingSafeEqual } from 'node:crypto';
import type { KeyRecord, Store } from '../store/types.js';
import type { AuthMode } from './types.js';

/** Keys are stored only as SHA-256 hashes; a key is looked up by its hash, then compared in constant time. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Reads the presented key: `X-Auth` (any case: headers arrive lower-cased) or, where allowed, `key=`. */
export function presentedKey(
  headers: Readonly<Record<string, string>>,
  query: URLSearchParams,
  mode: AuthMode,
): string | undefined {
  const header = headers['x-auth']?.trim();
  if (header) return header;
  if (mode === 'header-or-query') return query.get('key')?.trim() || undefined;
  return undefined;
}

export async function authenticate(store: Store, key: string | undefined): Promise<KeyRecord | null> {
  if (!key || key.length > 512) return null;
  const hash = hashKey(key);
  const rec = await store.keys.findByHash(hash);
  if (!rec) return null;
  const a = Buffer.from(rec.hash, 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b) ? rec : null;
}
