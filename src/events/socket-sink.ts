import type { SessionEvent } from '../domain/events.js';
import type { OutboundFrame } from '../domain/frames.js';
import type { Serializer, WireMessage } from '../transport/types.js';

/** The part of a uWS WebSocket the sink uses (kept narrow so the sink is testable alone). */
export interface SocketLike {
  send(message: string | Uint8Array, isBinary?: boolean): number;
  getBufferedAmount(): number;
  end(code?: number, reason?: string): void;
}

/**
 * Writes a session's events (and honeypot output) to its socket through the socket's serializer.
 * Backpressure aware: above `highWater` buffered bytes, messages wait in order in a short queue and
 * are flushed on `drain()`; a socket that never drains loses the oldest audio first, never events.
 */
export class SocketSink {
  private readonly queue: WireMessage[] = [];
  private closed = false;
  private ending: { code: number; reason: string } | null = null;

  constructor(
    private readonly ws: SocketLike,
    private readonly serializer: Serializer,
    private readonly highWater = 256 * 1024,
    private readonly queueLimit = 512,
  ) {}

  event(event: SessionEvent): void {
    const msg = this.serializer.encodeEvent(event);
    if (msg) this.write(msg);
  }

  outbound(frame: OutboundFrame): void {
    const msg = this.serializer.encodeOutbound(frame);
    if (msg) this.write(msg);
  }

  /** Sends what waits, then closes; the close happens after the queue is flushed. */
  close(code = 1000, reason = 'session ended'): void {
    if (this.closed) return;
    this.ending = { code, reason };
    if (this.queue.length === 0) this.finish();
  }

  /** The socket went away: drop everything. */
  detach(): void {
    this.closed = true;
    this.queue.length = 0;
  }

  /** Called from the socket's drain handler. */
  drain(): void {
    if (this.closed) return;
    while (this.queue.length > 0 && this.ws.getBufferedAmount() < this.highWater) {
      const msg = this.queue.shift()!;
      this.ws.send(msg.data, msg.binary);
    }
    if (this.queue.length === 0 && this.ending) this.finish();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private write(msg: WireMessage): void {
    if (this.closed) return;
    if (this.queue.length === 0 && this.ws.getBufferedAmount() < this.highWater) {
      this.ws.send(msg.data, msg.binary);
      return;
    }
    if (this.queue.length >= this.queueLimit) {
      // Shed audio before events: a late warning still matters, late audio does not.
      const audioAt = this.queue.findIndex((m) => m.audio === true);
      if (audioAt < 0 && msg.audio === true) return;
      this.queue.splice(audioAt >= 0 ? audioAt : 0, 1);
    }
    this.queue.push(msg);
  }

  private finish(): void {
    const e = this.ending!;
    this.closed = true;
    this.ws.end(e.code, e.reason);
  }
}
