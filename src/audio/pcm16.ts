/* 16-bit little-endian PCM from a byte stream whose chunks may split a sample in two. */

import { pooledSamples } from '../util/bytes.js';

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Turns successive byte chunks into samples. A chunk with an odd byte count leaves its last byte
 * behind; it becomes the low byte of the first sample of the next chunk, so nothing is lost or shifted.
 */
export class Pcm16Reader {
  private carry = -1;

  read(bytes: Uint8Array): Int16Array {
    let start = 0;
    let head: number | undefined;
    if (this.carry >= 0 && bytes.length > 0) {
      head = (((bytes[0]! << 8) | this.carry) << 16) >> 16;
      this.carry = -1;
      start = 1;
    }
    const pairs = (bytes.length - start) >> 1;
    if (start + pairs * 2 < bytes.length) this.carry = bytes[bytes.length - 1]!;
    const body = bytes.subarray(start, start + pairs * 2);

    if (head === undefined && LITTLE_ENDIAN && body.byteOffset % 2 === 0) {
      // Aligned and in host order: a view, no copy.
      return new Int16Array(body.buffer, body.byteOffset, pairs);
    }
    const out = pooledSamples(pairs + (head === undefined ? 0 : 1));
    let o = 0;
    if (head !== undefined) out[o++] = head;
    for (let i = 0; i < body.length; i += 2) out[o++] = (((body[i + 1]! << 8) | body[i]!) << 16) >> 16;
    return out;
  }

  /** True when half a sample is waiting for the next chunk. */
  get pending(): boolean {
    return this.carry >= 0;
  }
}

/** Whole-buffer conversion (a trailing odd byte is ignored). */
export function pcm16FromBytes(bytes: Uint8Array): Int16Array {
  return new Pcm16Reader().read(bytes).slice();
}

/** Samples → little-endian bytes. */
export function pcm16ToBytes(samples: Int16Array): Buffer {
  const out = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i]!, i * 2);
  return out;
}
