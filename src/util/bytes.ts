/*
 * Short-lived audio buffers carved from shared slabs.
 *
 * V8 gives every typed array over 64 bytes its own off-heap backing store: a malloc plus external-memory
 * bookkeeping the collector must finalise, about 3 µs each here. A live call makes two or three such
 * arrays per 20 ms frame (the transport's copy, the decoded samples), so at a thousand calls that alone is
 * a tenth of a core. A view into a shared 8 KB slab costs a fraction of that (as `Buffer.allocUnsafe`
 * does with Node's pool, but without a Buffer object beside each view).
 *
 * The price: a view keeps its whole 8 KB slab alive. Use these only for audio that is consumed within
 * the frame's tick or soon after; anything that holds audio for long (queues across reconnects,
 * recordings) keeps its own copy.
 */

/** The slab small audio buffers are carved from, like Node's own 8 KB pool but one object per buffer. */
const SLAB_BYTES = 8 * 1024;
/** Larger requests get memory of their own: they are rare, and would waste most of a slab. */
const MAX_CARVED = SLAB_BYTES / 4;
let slab = new ArrayBuffer(SLAB_BYTES);
let used = 0;

/** Reserves `bytes` in the current slab (a new one when it is full); returns the offset, 8-byte aligned. */
function carve(bytes: number): number {
  if (used + bytes > SLAB_BYTES) {
    slab = new ArrayBuffer(SLAB_BYTES);
    used = 0;
  }
  const at = used;
  used = (used + bytes + 7) & ~7;
  return at;
}

/** `n` bytes (contents unspecified) from a shared slab. */
export function pooledBytes(n: number): Uint8Array {
  if (n > MAX_CARVED) return new Uint8Array(n);
  const at = carve(n);
  return new Uint8Array(slab, at, n);
}

/** `n` 16-bit samples (contents unspecified) from a shared slab. */
export function pooledSamples(n: number): Int16Array {
  if (2 * n > MAX_CARVED) return new Int16Array(n);
  const at = carve(2 * n);
  return new Int16Array(slab, at, n);
}

/** A pooled copy of bytes whose memory the caller does not own (a socket library's receive buffer). */
export function copyBytes(src: Uint8Array): Uint8Array {
  const out = pooledBytes(src.byteLength);
  out.set(src);
  return out;
}

/** An array that owns exactly its memory: for audio held beyond the moment (it must not pin a pool). */
export function ownedCopy<T extends Uint8Array | Int16Array>(a: T): T {
  return a.byteOffset === 0 && a.byteLength === a.buffer.byteLength ? a : (a.slice() as T);
}
