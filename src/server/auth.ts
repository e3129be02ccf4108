import { hash, timingSafeEqual } from 'node:crypto';
import type { KeyRecord, Store } from '../store/types.js';
import type { AuthMode } from './types.js';

/**
 * Keys are stored only as SHA-256 hashes; a key is looked up by its hash, then compared in constant time.
 * The one-shot `hash` (no Hash object to build and finish) costs less than half of `createHash`'s three
 * calls, paid on every request and socket upgrade.
 */
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
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

/**
 * How long a key found in the store is believed without asking again: a key revoked (or expired) on
 * one node is refused on every node within this time.
 */
export const KNOWN_KEY_TTL_MS = 10_000;
const KNOWN_KEYS_MAX = 10_000;
/** Per store: key hash → the record (its `credits` are not kept fresh: nothing reads them from here). */
const knownKeys = new WeakMap<Store, Map<string, { rec: KeyRecord; until: number }>>();

/** Whether a stored key may be used at `nowMs`: not revoked, not past its expiry. */
export function keyUsable(rec: KeyRecord, nowMs: number): boolean {
  if (rec.revoked_at !== undefined) return false;
  return rec.expires_at === undefined || Date.parse(rec.expires_at) > nowMs;
}

/**
 * The key's record, or null when the key is missing, unknown, revoked or expired. A key found is remembered for
 * `KNOWN_KEY_TTL_MS`: every request and socket upgrade authenticates, and the store lookup was about 5 %
 * of a scan's work on the main thread. Unknown keys are never remembered, so a key created now works now.
 */
export async function authenticate(
  store: Store,
  key: string | undefined,
  now: () => number = Date.now,
): Promise<KeyRecord | null> {
  if (!key || key.length > 512) return null;
  const digest = hashKey(key);
  let known = knownKeys.get(store);
  if (!known) knownKeys.set(store, (known = new Map()));
  const cached = known.get(digest);
  const t = now();
  if (cached && cached.until > t) return keyUsable(cached.rec, t) ? cached.rec : null;
  const rec = await store.keys.findByHash(digest);
  if (!rec) return null;
  const a = Buffer.from(rec.hash, 'hex');
  const b = Buffer.from(digest, 'hex');
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  if (known.size >= KNOWN_KEYS_MAX) known.clear();
  known.set(digest, { rec, until: t + KNOWN_KEY_TTL_MS });
  if (!keyUsable(rec, t)) return null;
  // Last use is written when the store is asked anyway (once per node per TTL), never on the hot path.
  store.keys.touch(rec.id, new Date(t).toISOString()).catch(() => undefined);
  return rec;
}
