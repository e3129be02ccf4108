/*
 * The transaction layer (RFC 3261 §17, with RFC 6026's Accepted state): absorbs retransmitted
 * requests by resending the last response, retransmits final responses over UDP until the ACK, and
 * retransmits our own requests (BYE) until they are answered. Over TCP nothing is retransmitted.
 */
import { randomBytes } from 'node:crypto';
import { headerParam, parseCSeq, type SipRequest, type SipResponse } from './message.js';
import type { Flow, Inbound } from './transport.js';

export interface SipTimers {
  /** RTT estimate (500 ms). */
  t1: number;
  /** Longest retransmit interval for non-INVITE requests and INVITE responses (4 s). */
  t2: number;
  /** How long a message may stay in the network (5 s). */
  t4: number;
}

export const RFC3261_TIMERS: SipTimers = { t1: 500, t2: 4000, t4: 5000 };

export interface Sender {
  send(flow: Flow, message: SipRequest | SipResponse): void;
}

type InviteState = 'proceeding' | 'completed' | 'accepted' | 'confirmed' | 'terminated';
type PlainState = 'trying' | 'completed' | 'terminated';

/** The server side of one request. */
export class ServerTransaction {
  private state: InviteState | PlainState;
  private last: SipResponse | null = null;
  private timers: NodeJS.Timeout[] = [];
  private noAck: (() => void) | null = null;

  constructor(
    readonly request: SipRequest,
    readonly flow: Flow,
    private readonly layer: TransactionLayer,
    readonly id: string,
  ) {
    this.state = request.method === 'INVITE' ? 'proceeding' : 'trying';
  }

  get isInvite(): boolean {
    return this.request.method === 'INVITE';
  }

  /** True until a final response was sent. */
  get pending(): boolean {
    return this.state === 'proceeding' || this.state === 'trying';
  }

  get lastResponse(): SipResponse | null {
    return this.last;
  }

  /** Called when a 2xx to this INVITE is never acknowledged (the UAS then ends the dialog with BYE). */
  onNoAck(fn: () => void): void {
    this.noAck = fn;
  }

  send(res: SipResponse): void {
    if (this.state === 'terminated' || !this.pending) {
      // Only the 2xx of an INVITE may be resent by the core once final (a re-answer is not allowed).
      return;
    }
    this.last = res;
    this.layer.sender.send(this.flow, res);
    if (res.status < 200) return;
    const udp = this.flow.protocol === 'UDP';
    const { t1, t2 } = this.layer.timers;
    if (!this.isInvite) {
      this.state = 'completed';
      this.after(udp ? 64 * t1 : 0, () => this.terminate());
      return;
    }
    // Final responses to INVITE go out again until the ACK (timer G for non-2xx; the UAS core's 2xx
    // retransmission of §13.3.1.4, kept here so both share one place).
    this.state = res.status < 300 ? 'accepted' : 'completed';
    if (udp) this.retransmit(t1, t2);
    this.after(64 * t1, () => {
      const unacked = this.state === 'accepted' || this.state === 'completed';
      const wasAccepted = this.state === 'accepted';
      this.terminate();
      if (unacked && wasAccepted) this.noAck?.();
    });
  }

  /** Retransmitted request: resend the last response (§17.2.1, §17.2.2). */
  retransmitted(): void {
    if (this.last && this.state !== 'terminated' && this.state !== 'confirmed') {
      this.layer.sender.send(this.flow, this.last);
    }
  }

  /** The ACK arrived (for a non-2xx in this transaction, or for the 2xx, matched by the dialog). */
  acked(): void {
    if (this.state === 'completed' || this.state === 'accepted') {
      this.clear();
      this.state = 'confirmed';
      // Timer I (and RFC 6026 for the 2xx): stay a while to absorb stray retransmissions, quietly.
      this.after(this.flow.protocol === 'UDP' ? this.layer.timers.t4 : 0, () => this.terminate());
    }
  }

  private retransmit(interval: number, cap: number): void {
    this.after(interval, () => {
      if (this.state !== 'accepted' && this.state !== 'completed') return;
      if (this.last) this.layer.sender.send(this.flow, this.last);
      this.retransmit(Math.min(interval * 2, cap), cap);
    });
  }

  private after(ms: number, fn: () => void): void {
    const t = setTimeout(fn, ms);
    t.unref?.();
    this.timers.push(t);
  }

  private clear(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
  }

  terminate(): void {
    this.clear();
    this.state = 'terminated';
    this.layer.forget(this.id);
  }
}

export interface TransactionHandlers {
  /** A new request (not a retransmission, not an ACK, not a CANCEL). */
  onRequest(txn: ServerTransaction): void;
  /** A CANCEL (its own transaction) and the INVITE transaction it cancels, if any is known. */
  onCancel(cancel: ServerTransaction, invite: ServerTransaction | undefined): void;
  /** An ACK that belongs to no transaction here: the ACK for a 2xx (§17.1.1.3), handled by the dialog. */
  onAck(ack: SipRequest, flow: Flow): void;
}

interface ClientTxn {
  resolve(res: SipResponse | null): void;
  timers: NodeJS.Timeout[];
}

/** Transaction id of a request (§17.2.3): top Via branch and sent-by, method (ACK matches INVITE). */
export function transactionId(req: SipRequest, methodOverride?: string): string {
  const via = req.headers.get('via') ?? '';
  const branch = headerParam(via, 'branch') ?? '';
  const sentBy = /^SIP\/2\.0\/[A-Za-z]+\s+([^;\s]+)/i.exec(via)?.[1] ?? '';
  const method = methodOverride ?? (req.method === 'ACK' ? 'INVITE' : req.method);
  if (branch.startsWith('z9hG4bK')) return `${branch}|${sentBy}|${method}`;
  // RFC 2543 peers: no magic cookie, so match on the dialog fields.
  const cseq = parseCSeq(req.headers.get('cseq'));
  const fromTag = headerParam(req.headers.get('from'), 'tag') ?? '';
  return `${req.headers.get('call-id')}|${cseq?.seq}|${fromTag}|${via}|${method}`;
}

export class TransactionLayer {
  private readonly server = new Map<string, ServerTransaction>();
  private readonly client = new Map<string, ClientTxn>();

  constructor(
    readonly sender: Sender,
    readonly timers: SipTimers,
    private readonly handlers: TransactionHandlers,
  ) {}

  get size(): number {
    return this.server.size;
  }

  receive({ message, flow }: Inbound): void {
    if (message.type === 'response') return this.response(message);
    const req = message;
    if (req.method === 'ACK') {
      const invite = this.server.get(transactionId(req));
      // An ACK with the INVITE's branch acknowledges a non-2xx final response (§17.1.1.3).
      if (invite && invite.lastResponse && invite.lastResponse.status >= 300) invite.acked();
      else if (!invite || (invite.lastResponse && invite.lastResponse.status < 300)) this.handlers.onAck(req, flow);
      return;
    }
    const id = transactionId(req);
    const known = this.server.get(id);
    if (known) return known.retransmitted();
    const txn = new ServerTransaction(req, flow, this, id);
    this.server.set(id, txn);
    if (req.method === 'CANCEL') {
      this.handlers.onCancel(txn, this.server.get(transactionId(req, 'INVITE')));
      return;
    }
    this.handlers.onRequest(txn);
  }

  forget(id: string): void {
    this.server.delete(id);
  }

  /**
   * Sends a request we originate (BYE) and waits for its final response; null on timeout (timer F).
   * Over UDP it is retransmitted with timer E (§17.1.2.2).
   */
  request(flow: Flow, req: SipRequest): Promise<SipResponse | null> {
    const branch = `z9hG4bK${randomBytes(10).toString('hex')}`;
    const via = req.headers.get('via') ?? '';
    req.headers.set('via', `${via};branch=${branch}`);
    const id = `${branch}|${req.method}`;
    const { t1, t2 } = this.timers;
    return new Promise((resolve) => {
      const txn: ClientTxn = {
        timers: [],
        resolve: (res) => {
          for (const t of txn.timers) clearTimeout(t);
          this.client.delete(id);
          resolve(res);
        },
      };
      this.client.set(id, txn);
      this.sender.send(flow, req);
      const again = (interval: number): void => {
        const t = setTimeout(() => {
          this.sender.send(flow, req);
          again(Math.min(interval * 2, t2));
        }, interval);
        t.unref?.();
        txn.timers.push(t);
      };
      if (flow.protocol === 'UDP') again(t1);
      const f = setTimeout(() => txn.resolve(null), 64 * t1);
      f.unref?.();
      txn.timers.push(f);
    });
  }

  private response(res: SipResponse): void {
    const branch = headerParam(res.headers.get('via'), 'branch') ?? '';
    const method = parseCSeq(res.headers.get('cseq'))?.method ?? '';
    const txn = this.client.get(`${branch}|${method}`);
    if (txn && res.status >= 200) txn.resolve(res);
  }

  /** Stops every timer (shutdown). */
  close(): void {
    for (const t of [...this.server.values()]) t.terminate();
    for (const c of [...this.client.values()]) c.resolve(null);
  }
}
