import { Observable, type OperatorFunction, type Subscriber } from 'rxjs';
import { createDecoder, type ChunkDecoder } from '../src/audio/decoder.js';
import type { AudioEncoding } from '../src/domain/frames.js';
import { FrameSubscriber } from '../src/util/frame-subscriber.js';

type AudioIn = Uint8Array | { data: Uint8Array };

/**
 * Raw audio bytes in the session's encoding (or audio frames carrying them) → 16-bit PCM chunks. Empty
 * frames are skipped; a pcm16 frame with an odd byte count leaves its last byte for the next frame, so a
 * sample split across frames is joined rather than shifting every later sample.
 *
 * Taking frames as well as bytes spares the live path a `map` to unwrap them: a step on every 20 ms frame.
 */
export function decode(encoding: AudioEncoding): OperatorFunction<AudioIn, Int16Array> {
  return (audio$) =>
    new Observable<Int16Array>((out) => audio$.subscribe(new DecodeSubscriber(out, createDecoder(encoding))));
}

class DecodeSubscriber extends FrameSubscriber<AudioIn, Int16Array> {
  constructor(
    out: Subscriber<Int16Array>,
    private readonly decodeChunk: ChunkDecoder,
  ) {
    super(out);
  }

  protected override _next(item: AudioIn): void {
    const bytes = item instanceof Uint8Array ? item : item.data;
    if (bytes.length === 0) return;
    const pcm = this.decodeChunk(bytes);
    if (pcm.length > 0) this.out.next(pcm);
  }
}
