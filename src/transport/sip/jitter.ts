/*
 * A small jitter buffer for the caller's RTP: packets are held until `depth` of them are waiting,
 * then released in sequence order, so reordering within that window is undone. A gap that is still
 * open when the buffer is full is given up as loss. A new SSRC (the caller's side restarted its
 * stream, or a media server took over) releases what was held and starts a new sequence space.
 */
import { seqDelta, type RtpPacket } from './rtp.js';

export class JitterBuffer {
  private held: RtpPacket[] = [];
  private ssrc: number | null = null;
  /** Sequence number expected next, once something was released. */
  private next: number | null = null;

  constructor(private readonly depth = 3) {}

  /** Adds a packet; returns the packets now ready, in order. Duplicates and late packets are dropped. */
  push(p: RtpPacket): RtpPacket[] {
    const out: RtpPacket[] = [];
    if (this.ssrc !== null && p.ssrc !== this.ssrc) {
      out.push(...this.flush());
      this.next = null;
    }
    this.ssrc = p.ssrc;
    if (this.next !== null && seqDelta(p.sequence, this.next) < 0) return out;
    if (this.held.some((h) => h.sequence === p.sequence)) return out;
    const at = this.held.findIndex((h) => seqDelta(p.sequence, h.sequence) < 0);
    if (at < 0) this.held.push(p);
    else this.held.splice(at, 0, p);
    // Release what is in order; when over depth, skip the gap at the head.
    for (;;) {
      const head = this.held[0];
      if (!head) break;
      const inOrder = this.next === null ? false : head.sequence === this.next;
      if (!inOrder && this.held.length <= this.depth) break;
      this.held.shift();
      this.next = (head.sequence + 1) & 0xffff;
      out.push(head);
    }
    return out;
  }

  /** Releases everything held, in order (the stream paused or ended). */
  flush(): RtpPacket[] {
    const out = this.held;
    this.held = [];
    const last = out.at(-1);
    if (last) this.next = (last.sequence + 1) & 0xffff;
    return out;
  }

  get size(): number {
    return this.held.length;
  }
}
