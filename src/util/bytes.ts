/*
 * Short-lived audio buffers from Node's shared allocation pool.
 *
 * V8 gives every typed array over 64 bytes its own off-heap backing store: a malloc plus external-memory
 * bookkeeping the collector must finalise, about 3 µs each here. A live call makes two or three such
 * arrays per 20 ms frame (the transport's copy, the decoded samples), so at a thousand calls that alone is
 * a tenth of a core. A slice of Node's 8 KB pool (`Buffer.allocUnsafe`) costs a fraction of that.
 *
 * The price: a slice keeps its whole 8 KB pool alive. Use these only for audio that is consumed within
 * the frame's tick or soon after; anything that holds audio for long (queues across reconnects,
 * recordings) keeps its own copy.
 */

/** `n` uninitialised bytes from the shared pool, as a plain Uint8Array view. */
export function pooledBytes(n: number): Uint8Array {
  const b = Buffer.allocUnsafe(n);
  return new Uint8Array(b.buffer, b.byteOffset, n);
}

/** `n` uninitialised 16-bit samples from the shared pool (the pool keeps slices 8-byte aligned). */
export function pooledSamples(n: number): Int16Array {
  const b = Buffer.allocUnsafe(n * 2);
  return new Int16Array(b.buffer, b.byteOffset, n);
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
