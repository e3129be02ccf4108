/*
 * SIP transports (RFC 3261 §18): one UDP socket and one TCP listener on the same port. Every message
 * carries the flow it came on, so responses go back the way the request came (symmetric response,
 * RFC 3581) and requests we originate in a dialog reuse an open TCP connection.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import { headerParam, parseDatagram, serialize, SipParseError, StreamFramer, type SipMessage } from './message.js';

export type SipProtocol = 'UDP' | 'TCP';

export interface Flow {
  protocol: SipProtocol;
  address: string;
  port: number;
}

export interface Inbound {
  message: SipMessage;
  flow: Flow;
}

export interface SipTransportOptions {
  host: string;
  /** 0 picks a free port (the same number for UDP and TCP). */
  port: number;
  onMessage(msg: Inbound): void;
  onError?(err: unknown, context: string): void;
}

/** Idle TCP connections are closed after this long (a dialog's BYE reconnects if needed). */
const TCP_IDLE_MS = 10 * 60 * 1000;
const BIND_ATTEMPTS = 20;

export class SipTransport {
  private udp: dgram.Socket | null = null;
  private tcp: net.Server | null = null;
  private readonly conns = new Map<string, net.Socket>();
  private boundPort = 0;

  constructor(private readonly opts: SipTransportOptions) {}

  get port(): number {
    return this.boundPort;
  }

  /** The address other parties should use for us: the listen host unless it is a wildcard. */
  get host(): string {
    return this.opts.host;
  }

  async listen(): Promise<number> {
    // Port 0: the OS picks a UDP port, and TCP must get the same number; retry when TCP has it taken.
    for (let attempt = 0; ; attempt++) {
      const udp = await this.bindUdp(this.opts.port);
      const port = udp.address().port;
      try {
        this.tcp = await this.listenTcp(port);
        this.udp = udp;
        this.boundPort = port;
        return port;
      } catch (err) {
        udp.close();
        if (this.opts.port !== 0 || attempt >= BIND_ATTEMPTS) throw err;
      }
    }
  }

  private bindUdp(port: number): Promise<dgram.Socket> {
    return new Promise((resolve, reject) => {
      const sock = dgram.createSocket(net.isIPv6(this.opts.host) ? 'udp6' : 'udp4');
      sock.once('error', reject);
      sock.bind(port, this.opts.host, () => {
        sock.off('error', reject);
        sock.on('error', (err) => this.opts.onError?.(err, 'udp'));
        sock.on('message', (data, rinfo) =>
          this.receive(data, { protocol: 'UDP', address: rinfo.address, port: rinfo.port }),
        );
        resolve(sock);
      });
    });
  }

  private listenTcp(port: number): Promise<net.Server> {
    return new Promise((resolve, reject) => {
      const server = net.createServer((socket) => this.accept(socket));
      server.once('error', reject);
      server.listen(port, this.opts.host, () => {
        server.off('error', reject);
        server.on('error', (err) => this.opts.onError?.(err, 'tcp'));
        resolve(server);
      });
    });
  }

  private receive(data: Buffer, flow: Flow): void {
    // Keep-alive pings (RFC 5626) are bare CRLFs.
    if (data.length <= 4 && data.toString('latin1').trim() === '') return;
    let message: SipMessage;
    try {
      message = parseDatagram(data);
    } catch (err) {
      if (!(err instanceof SipParseError)) throw err;
      this.opts.onError?.(err, 'parse');
      return;
    }
    this.deliver(message, flow);
  }

  private deliver(message: SipMessage, flow: Flow): void {
    try {
      this.opts.onMessage({ message, flow });
    } catch (err) {
      this.opts.onError?.(err, 'handler');
    }
  }

  private track(socket: net.Socket): Flow {
    const flow: Flow = { protocol: 'TCP', address: socket.remoteAddress ?? '', port: socket.remotePort ?? 0 };
    const id = flowId(flow);
    this.conns.set(id, socket);
    socket.setTimeout(TCP_IDLE_MS, () => socket.destroy());
    socket.on('close', () => {
      if (this.conns.get(id) === socket) this.conns.delete(id);
    });
    socket.on('error', () => socket.destroy());
    const framer = new StreamFramer();
    socket.on('data', (chunk: Buffer) => {
      let messages: SipMessage[];
      try {
        messages = framer.push(chunk);
      } catch (err) {
        // A stream that cannot be framed cannot be resynchronised.
        this.opts.onError?.(err, 'parse');
        socket.destroy();
        return;
      }
      for (const m of messages) this.deliver(m, flow);
    });
    return flow;
  }

  private accept(socket: net.Socket): void {
    this.track(socket);
  }

  /** True when the flow is UDP or its TCP connection is still open. */
  isOpen(flow: Flow): boolean {
    if (flow.protocol === 'UDP') return true;
    const c = this.conns.get(flowId(flow));
    return c !== undefined && !c.destroyed;
  }

  /** Sends on the flow: the UDP socket, or the open TCP connection (opened anew when it closed). */
  send(flow: Flow, message: SipMessage): void {
    const bytes = serialize(message);
    if (flow.protocol === 'UDP') {
      this.udp?.send(bytes, flow.port, flow.address);
      return;
    }
    const open = this.conns.get(flowId(flow));
    if (open && !open.destroyed) {
      open.write(bytes);
      return;
    }
    const socket = net.connect({ host: flow.address, port: flow.port });
    this.track(socket);
    socket.write(bytes);
  }

  async close(): Promise<void> {
    for (const s of this.conns.values()) s.destroy();
    this.conns.clear();
    await Promise.all([
      new Promise<void>((r) => (this.udp ? this.udp.close(() => r()) : r())),
      new Promise<void>((r) => (this.tcp ? this.tcp.close(() => r()) : r())),
    ]);
    this.udp = null;
    this.tcp = null;
  }
}

export function flowId(flow: Flow): string {
  return `${flow.protocol}:${flow.address}:${flow.port}`;
}

/** Adds `received` (and fills `rport`) on the top Via of a request that came over the network (§18.2.1). */
export function stampVia(via: string, flow: Flow): string {
  let out = via;
  const sentBy = /^SIP\/2\.0\/[A-Za-z]+\s+([^;:\s]+|\[[^\]]+\])/i.exec(via)?.[1];
  if (sentBy !== flow.address && headerParam(via, 'received') === undefined) out += `;received=${flow.address}`;
  if (/;\s*rport(?=;|$|\s)/i.test(out)) out = out.replace(/;\s*rport(?=;|$|\s)/i, `;rport=${flow.port}`);
  return out;
}
