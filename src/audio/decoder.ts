/* One track's byte stream in the session's declared encoding → 16-bit PCM chunks. */
import type { AudioEncoding } from '../domain/frames.js';
import { ALAW_TO_PCM, MULAW_TO_PCM, decodeG711 } from './g711.js';
import { Pcm16Reader } from './pcm16.js';

export type ChunkDecoder = (bytes: Uint8Array) => Int16Array;

// G.711 keeps no state between chunks, so every stream shares one decoder: one object fewer for each
// frame of each call to reach (see src/util/relay.ts on cache misses).
const decodeMulaw: ChunkDecoder = (bytes) => decodeG711(bytes, MULAW_TO_PCM);
const decodeAlaw: ChunkDecoder = (bytes) => decodeG711(bytes, ALAW_TO_PCM);

/** A decoder for one stream (pcm16 keeps a split sample between chunks). */
export function createDecoder(encoding: AudioEncoding): ChunkDecoder {
  switch (encoding) {
    case 'pcm16': {
      const reader = new Pcm16Reader();
      return (bytes) => reader.read(bytes);
    }
    case 'mulaw':
      return decodeMulaw;
    case 'alaw':
      return decodeAlaw;
  }
}

export function bytesPerSample(encoding: AudioEncoding): number {
  return encoding === 'pcm16' ? 2 : 1;
}
