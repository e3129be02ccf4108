import { Observable, type OperatorFunction } from 'rxjs';
import { createDecoder } from '../src/audio/decoder.js';
import type { AudioEncoding } from '../src/domain/frames.js';

/**
 * Raw audio bytes in the session's encoding (or audio frames carrying them) → 16-bit PCM chunks. Empty
 * frames are skipped; a pcm16 frame with an odd byte count leaves its last byte for the next frame, so a
 * sample split across frames is joined rather than shifting every later sample.
 *
 * Taking frames as well as bytes spares the live path a `map` to unwrap them: a step on every 20 ms frame.
 */
export function decode(encoding: AudioEncoding): OperatorFunction<Uint8Array | { data: Uint8Array }, Int16Array> {
  return (audio$) =>
    new Observable<Int16Array>((out) => {
      const decodeChunk = createDecoder(encoding);
      return audio$.subscribe({
        next(item) {
          const bytes = item instanceof Uint8Array ? item : item.data;
          if (bytes.length === 0) return;
          const pcm = decodeChunk(bytes);
          if (pcm.length > 0) out.next(pcm);
        },
        error: (e: unknown) => out.error(e),
        complete: () => out.complete(),
      });
    });
}
