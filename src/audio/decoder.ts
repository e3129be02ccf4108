/* One track's byte stream in the session's declared encoding → 16-bit PCM chunks. */
import type { AudioEncoding } from '../domain/frames.js';
import { ALAW_TO_PCM, MULAW_TO_PCM, decodeG711 } from './g711.js';
import { Pcm16Reader } from './pcm16.js';

export type ChunkDecoder = (bytes: Uint8Array) => Int16Array;

/** A stateful decoder for one stream (pcm16 keeps a split sample between chunks). */
export function createDecoder(encoding: AudioEncoding): ChunkDecoder {
  switch (encoding) {
    case 'pcm16': {
      const reader = new Pcm16Reader();
      return (bytes) => reader.read(bytes);
    }
    case 'mulaw':
      return (bytes) => decodeG711(bytes, MULAW_TO_PCM);
    case 'alaw':
      return (bytes) => decodeG711(bytes, ALAW_TO_PCM);
  }
}

export function bytesPerSample(encoding: AudioEncoding): number {
  return encoding === 'pcm16' ? 2 : 1;
}
