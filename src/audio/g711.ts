/*
 * G.711 decoding (ITU-T G.711): one byte per sample → 16-bit linear PCM, by 256-entry tables built once.
 * mu-law is vendor A's and vendor B's default (PCMU); A-law arrives from vendor B as PCMA.
 */

import { pooledSamples } from '../util/bytes.js';

function mulawToLinear(byte: number): number {
  const u = ~byte & 0xff;
  const magnitude = ((((u & 0x0f) << 3) + 0x84) << ((u & 0x70) >> 4)) - 0x84;
  return u & 0x80 ? -magnitude : magnitude;
}

function alawToLinear(byte: number): number {
  const a = byte ^ 0x55;
  const segment = (a & 0x70) >> 4;
  let magnitude = (a & 0x0f) << 4;
  magnitude = segment === 0 ? magnitude + 8 : (magnitude + 0x108) << (segment - 1);
  return a & 0x80 ? magnitude : -magnitude;
}

function table(decode: (byte: number) => number): Int16Array {
  const t = new Int16Array(256);
  for (let i = 0; i < 256; i++) t[i] = decode(i);
  return t;
}

export const MULAW_TO_PCM: Readonly<Int16Array> = table(mulawToLinear);
export const ALAW_TO_PCM: Readonly<Int16Array> = table(alawToLinear);

/** Decodes G.711 bytes into `out` (which must hold `bytes.length` samples); returns `out`. */
export function decodeG711(
  bytes: Uint8Array,
  lookup: Readonly<Int16Array>,
  out: Int16Array = pooledSamples(bytes.length),
): Int16Array {
  // Every 20 ms frame of every call passes here. V8 neither hoists a typed array's length out of a loop
  // nor unrolls one: done by hand, this loop costs about half as much (bench/graph.ts).
  const n = bytes.length;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    out[i] = lookup[bytes[i]!]!;
    out[i + 1] = lookup[bytes[i + 1]!]!;
    out[i + 2] = lookup[bytes[i + 2]!]!;
    out[i + 3] = lookup[bytes[i + 3]!]!;
  }
  for (; i < n; i++) out[i] = lookup[bytes[i]!]!;
  return out;
}
