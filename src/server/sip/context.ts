/*
 * What the parts of the SIP entry point share: its options, the node's services, the transaction layer,
 * and the calls in progress.
 */
import type net from 'node:net';
import os from 'node:os';
import type { Logger } from '../../log.js';
import type { Services } from '../../services.js';
import type { Admission } from '../../session/admission.js';
import type { Supervisor } from '../../session/supervisor.js';
import type { PortRange } from '../../transport/sip/rtp-session.js';
import type { SipTimers, TransactionLayer } from '../../transport/sip/transactions.js';
import type { SipTransport } from '../../transport/sip/transport.js';
import type { RequestLimits } from '../rate-limit.js';
import type { Call } from './call.js';

/** Methods the UAS implements (OPTIONS and 405 answers list them). */
export const ALLOW = 'INVITE, ACK, CANCEL, BYE, OPTIONS';
/** The user part that reaches the honeypot with an API key. */
export const HONEYPOT_USER = 'honeypot';

export interface SipServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Address put in Contact and SDP; default: the listen host, or this machine's first external IPv4. */
  advertisedAddress?: string;
  /** Addresses or CIDR blocks whose media may differ from the signalling's (trunk peers); default none. */
  mediaPeers?: readonly string[];
  rtpPorts: PortRange;
  rtpTimeoutMs: number;
  /** How long the call rings (180) before the persona picks up; 0 answers at once. */
  ringMs?: number;
  /**
   * The node's request limits: out-of-dialog requests take from the sender address's bucket, keyed
   * INVITEs from the key's too.
   */
  limits?: RequestLimits;
  timers?: SipTimers;
}

export interface SipContext {
  readonly services: Services;
  readonly supervisor: Supervisor;
  readonly admission: Admission;
  readonly opts: SipServerOptions;
  readonly log: Logger;
  readonly transport: SipTransport;
  readonly layer: TransactionLayer;
  /** Dialogs in progress, by `Call.key`. */
  readonly calls: Map<string, Call>;
  /** Our BYEs still waiting for their answer: the drain lets them finish. */
  readonly byes: Set<Promise<void>>;
  readonly advertised: string;
  readonly mediaPeers: net.BlockList;
  readonly accepting: boolean;
}

/** Host and port for our Via and Contact, bracketed when IPv6. */
export function hostPort(ctx: SipContext): string {
  const host = ctx.advertised.includes(':') ? `[${ctx.advertised}]` : ctx.advertised;
  return `${host}:${ctx.transport.port}`;
}

export function advertisedAddress(host: string): string {
  if (host !== '0.0.0.0' && host !== '::') return host;
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return '127.0.0.1';
}
