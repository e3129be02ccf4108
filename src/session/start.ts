import type { SessionKind } from '../domain/events.js';
import type { AudioEncoding } from '../domain/frames.js';
import { MAX_SAMPLE_RATE, MIN_SAMPLE_RATE } from '../domain/limits.js';
import type { StartInfo } from '../transport/types.js';

/** Raw clients may declare pcm16 or mulaw; vendor B's PCMA arrives as alaw. */
const SUPPORTED: readonly AudioEncoding[] = ['pcm16', 'mulaw', 'alaw'];

/**
 * The last check before a session exists, whatever protocol parsed the start: the audio format must
 * be one the graph can decode. Returns the reason to close the socket (with no events), or null.
 */
export function startProblem(info: StartInfo, _kind: SessionKind): string | null {
  const { encoding, sampleRate } = info.audio;
  if (!SUPPORTED.includes(encoding)) return `unsupported encoding ${String(encoding)}`;
  if (!Number.isInteger(sampleRate) || sampleRate < MIN_SAMPLE_RATE || sampleRate > MAX_SAMPLE_RATE) {
    return `unsupported sample_rate ${String(sampleRate)}`;
  }
  return null;
}
