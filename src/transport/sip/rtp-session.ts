/*
 * One call's media: a UDP port from the configured range, the caller's RTP in (through the jitter
 * buffer; audio and RFC 4733 keys), the persona's speech out as 20 ms packets paced in real time,
 * and a watchdog that reports a caller whose RTP stopped.
 */
import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import { DtmfDetector } from './dtmf.js';
import { JitterBuffer } from './jitter.js';
import { buildRtp, parseRtp, type RtpPacket } from './rtp.js';

/** 20 ms of G.711 at 8 kHz. */
export const PACKET_BYTES = 160;
export const PACKET_MS = 20;
/** One packet time without data is tolerated (the speaker's own pacing jitter) before a talkspurt ends. */
const UNDERRUN_TICKS = 3;
/** Held packets are released when the caller pauses this long (silence suppression). */
const JITTER_IDLE_MS = 100;

export interface PortRange {
  min: number;
  max: number;
}

export interface RtpSessionOptions {
  /** Local address to bind. */
  host: string;
  /** Ports to pick from (even ports, RTP convention); { min: 0, max: 0 } lets the OS pick. */
  ports: PortRange;
  payloadType: number;
  dtmfPayloadType?: number;
  /** What silence is in the codec (0xFF for PCMU, 0xD5 for PCMA), to pad a final short packet. */
  silenceByte: number;
  /** The signalling peer's address: RTP from it is the caller's, and media goes back to it. */
  peerAddress: string;
  /**
   * Other addresses the caller's media may come from and go to (the configured trunk peers: a
   * carrier's media servers apart from its signalling). Absent: none.
   */
  mediaPeer?(address: string): boolean;
  /** No RTP for this long: `onTimeout`. */
  timeoutMs: number;
  onAudio(payload: Uint8Array): void;
  onDigit(digit: string): void;
  onTimeout(): void;
  /** Sending failed where it cannot be retried (the pacer runs outside any stream): the call should end. */
  onSendError?(err: unknown): void;
}

export class RtpSession {
  private socket: dgram.Socket | null = null;
  /** What the last offer asked for; null holds the call. */
  private offered: { address: string; port: number } | null = null;
  /** The source of the caller's RTP, when the offer named a host media may not be sent to. */
  private latched: { address: string; port: number } | null = null;
  /** Where our RTP goes now: see setRemote. */
  private remote: { address: string; port: number } | null = null;
  private readonly jitter = new JitterBuffer(3);
  private readonly dtmf = new DtmfDetector();
  private jitterTimer: NodeJS.Timeout | null = null;
  private watchdog: NodeJS.Timeout | null = null;
  private closed = false;

  // Outbound state (RFC 3550 §5.1): random initial sequence, timestamp and SSRC.
  private readonly ssrc = randomInt(0, 0xffffffff);
  private sequence = randomInt(0, 0xffff);
  private readonly timestampBase = randomInt(0, 0xffffffff);
  private readonly epoch = performance.now();
  private timestamp = 0;
  private queue: Buffer[] = [];
  private queued = 0;
  private talking = false;
  private talkStart = 0;
  private sentInSpurt = 0;
  private underruns = 0;
  private markerDue = false;
  private pacer: NodeJS.Timeout | null = null;
  private drainWaiters: Array<() => void> = [];
  /** Packets sent, for tests and metrics. */
  sent = 0;
  received = 0;

  constructor(private readonly opts: RtpSessionOptions) {}

  get port(): number {
    return this.socket?.address().port ?? 0;
  }

  async open(): Promise<number> {
    const { min, max } = this.opts.ports;
    const family = net.isIPv6(this.opts.host) ? 'udp6' : 'udp4';
    const tries = min === 0 ? 1 : 50;
    let lastErr: unknown;
    for (let i = 0; i < tries; i++) {
      const port = min === 0 ? 0 : evenPortIn(min, max);
      const sock = dgram.createSocket(family);
      try {
        await new Promise<void>((resolve, reject) => {
          sock.once('error', reject);
          sock.bind(port, this.opts.host, () => {
            sock.off('error', reject);
            resolve();
          });
        });
      } catch (err) {
        lastErr = err;
        sock.close();
        continue;
      }
      sock.on('error', () => undefined);
      sock.on('message', (data, rinfo) => this.receive(data, rinfo));
      this.socket = sock;
      this.arm();
      return sock.address().port;
    }
    throw new Error(`no free RTP port in ${min}-${max}: ${String(lastErr)}`);
  }

  /**
   * The offer's c=/m= (updated by a re-INVITE). Media never goes to a host that did not call: when the
   * offer names the signalling peer or a media peer, RTP goes where it says; when it names any other host
   * (a private address behind NAT, or a third party), nothing is sent until the caller's first RTP packet
   * arrives, and RTP then goes back to that packet's source (symmetric RTP).
   */
  setRemote(address: string, port: number): void {
    // 0.0.0.0 or port 0 holds the call (RFC 3264 §8.4): nothing is sent.
    this.offered = address === '0.0.0.0' || port === 0 ? null : { address, port };
    if (this.offered && this.isCaller(this.offered.address)) this.latched = null;
    this.retarget();
  }

  private retarget(): void {
    if (!this.offered) this.remote = null;
    else if (this.isCaller(this.offered.address)) this.remote = this.offered;
    else this.remote = this.latched;
  }

  /** An address the caller's media may come from and go to. */
  private isCaller(address: string): boolean {
    const a = plainAddress(address);
    return a === plainAddress(this.opts.peerAddress) || (this.opts.mediaPeer?.(a) ?? false);
  }

  private receive(data: Buffer, rinfo: dgram.RemoteInfo): void {
    if (this.closed) return;
    const p = parseRtp(data);
    if (!p) return;
    if (p.payloadType !== this.opts.payloadType && p.payloadType !== this.opts.dtmfPayloadType) return;
    // Only the caller's side may feed the call: the signalling peer, or a media peer.
    if (!this.isCaller(rinfo.address)) return;
    if (!this.latched && this.offered && !this.isCaller(this.offered.address)) {
      this.latched = { address: rinfo.address, port: rinfo.port };
      this.retarget();
    }
    this.received++;
    this.arm();
    for (const ready of this.jitter.push(p)) this.dispatch(ready);
    if (this.jitterTimer) clearTimeout(this.jitterTimer);
    this.jitterTimer = setTimeout(() => {
      for (const ready of this.jitter.flush()) this.dispatch(ready);
    }, JITTER_IDLE_MS);
  }

  private dispatch(p: RtpPacket): void {
    if (p.payloadType === this.opts.dtmfPayloadType) {
      const digit = this.dtmf.accept(p.ssrc, p.timestamp, p.payload);
      if (digit !== null) this.opts.onDigit(digit);
      return;
    }
    if (p.payload.length > 0) this.opts.onAudio(p.payload);
  }

  private arm(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => {
      if (!this.closed) this.opts.onTimeout();
    }, this.opts.timeoutMs);
    this.watchdog.unref?.();
  }

  /** Queues persona audio (already G.711 at 8 kHz) for paced sending. */
  play(data: Uint8Array): void {
    if (this.closed || data.length === 0) return;
    this.queue.push(Buffer.from(data));
    this.queued += data.length;
    if (!this.talking) this.startSpurt();
  }

  /** Drops queued audio (the caller barged in). */
  clear(): void {
    this.queue = [];
    this.queued = 0;
  }

  /** Resolves once everything queued has been sent (or at once when nothing is). */
  drained(): Promise<void> {
    if (!this.talking || this.queued === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  private startSpurt(): void {
    this.talking = true;
    this.talkStart = performance.now();
    this.sentInSpurt = 0;
    this.underruns = 0;
    this.markerDue = true;
    // The timestamp follows the clock across silence, so the far end can place the new talkspurt.
    const elapsedSamples = Math.round(((this.talkStart - this.epoch) * 8) / PACKET_BYTES) * PACKET_BYTES;
    this.timestamp = (this.timestampBase + elapsedSamples) >>> 0;
    this.tick();
  }

  private tick(): void {
    if (this.closed) return;
    if (this.queued >= PACKET_BYTES || (this.queued > 0 && this.underruns > 0)) {
      this.underruns = 0;
      this.sendPacket(this.take(PACKET_BYTES), this.markerDue);
      this.markerDue = false;
    } else {
      this.underruns++;
      if (this.queued === 0 && this.underruns >= UNDERRUN_TICKS) {
        this.talking = false;
        this.pacer = null;
        for (const w of this.drainWaiters.splice(0)) w();
        return;
      }
      // A lost tick still moves time on: the next packet's timestamp says where it belongs.
      this.timestamp = (this.timestamp + PACKET_BYTES) >>> 0;
    }
    this.sentInSpurt++;
    const due = this.talkStart + this.sentInSpurt * PACKET_MS;
    this.pacer = setTimeout(() => this.tick(), Math.max(0, due - performance.now()));
  }

  private take(n: number): Buffer {
    const out = Buffer.alloc(n, this.opts.silenceByte);
    let filled = 0;
    while (filled < n && this.queue.length) {
      const head = this.queue[0]!;
      const part = head.subarray(0, n - filled);
      part.copy(out, filled);
      filled += part.length;
      if (part.length === head.length) this.queue.shift();
      else this.queue[0] = head.subarray(part.length);
    }
    this.queued -= filled;
    return out;
  }

  private sendPacket(payload: Buffer, marker: boolean): void {
    const packet = buildRtp({
      payloadType: this.opts.payloadType,
      marker,
      sequence: this.sequence,
      timestamp: this.timestamp,
      ssrc: this.ssrc,
      payload,
    });
    this.sequence = (this.sequence + 1) & 0xffff;
    this.timestamp = (this.timestamp + PACKET_BYTES) >>> 0;
    if (!this.remote || !this.socket) return;
    try {
      this.socket.send(packet, this.remote.port, this.remote.address);
      this.sent++;
    } catch (err) {
      // send() throws at once on a target the socket cannot take; the pacer's timer would carry it to the process.
      this.remote = null;
      this.opts.onSendError?.(err);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const t of [this.pacer, this.watchdog, this.jitterTimer]) if (t) clearTimeout(t);
    for (const w of this.drainWaiters.splice(0)) w();
    this.socket?.close();
    this.socket = null;
  }
}

function plainAddress(a: string): string {
  return a.startsWith('::ffff:') ? a.slice(7) : a;
}

function evenPortIn(min: number, max: number): number {
  const lo = Math.ceil(min / 2);
  const hi = Math.floor(max / 2);
  return 2 * randomInt(lo, Math.max(lo + 1, hi + 1));
}
