/*
 * Audio waiting to be sent upstream, read by one consumer at a time. A stream that is abandoned (on
 * reconnect) hands the queue to the next one: taking over cancels the previous reader's wait, so no
 * chunk goes to a dead stream.
 */
import { ownedCopy } from '../../util/bytes.js';

export class AudioQueue {
  private chunks: Uint8Array[] = [];
  private bytes = 0;
  private ended = false;
  private waiter: ((more: boolean) => void) | null = null;

  push(chunk: Uint8Array): void {
    if (this.ended || chunk.length === 0) return;
    // Held until sent, possibly across reconnects: a copy of its own, never a slice pinning a shared pool.
    this.chunks.push(ownedCopy(chunk));
    this.bytes += chunk.length;
    this.wake(true);
  }

  /** Puts audio back at the front (to be sent again on a new stream). */
  requeue(chunks: readonly Uint8Array[]): void {
    const kept = chunks.filter((c) => c.length > 0);
    if (kept.length === 0) return;
    this.chunks.unshift(...kept);
    this.bytes += kept.reduce((n, c) => n + c.length, 0);
    this.wake(true);
  }

  end(): void {
    this.ended = true;
    this.wake(true);
  }

  get done(): boolean {
    return this.ended && this.chunks.length === 0;
  }

  /**
   * Waits until at least `min` bytes are queued (or the audio ended), then takes up to `max` bytes.
   * Returns null when the audio has ended and nothing is left, or when another reader took over.
   */
  async take(min: number, max: number): Promise<Uint8Array | null> {
    while (this.bytes < min && !this.ended) {
      this.wake(false); // a reader still waiting has been replaced by this one
      const more = await new Promise<boolean>((resolve) => (this.waiter = resolve));
      if (!more) return null;
    }
    if (this.chunks.length === 0) return null;
    const size = Math.min(max, this.bytes);
    const out = new Uint8Array(size);
    let filled = 0;
    while (filled < size) {
      const head = this.chunks[0]!;
      const n = Math.min(head.length, size - filled);
      out.set(head.subarray(0, n), filled);
      filled += n;
      if (n === head.length) this.chunks.shift();
      else this.chunks[0] = head.subarray(n);
    }
    this.bytes -= size;
    return out;
  }

  /** Cancels the current reader's wait (its `take` returns null). */
  release(): void {
    this.wake(false);
  }

  private wake(more: boolean): void {
    const w = this.waiter;
    this.waiter = null;
    w?.(more);
  }
}
