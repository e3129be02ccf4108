/*
 * One SIP dialog of the honeypot (RFC 3261 §12, UAS side): what is needed to recognise its ACK, BYE
 * and re-INVITE, to send our own BYE, and the media and session it drives.
 */
import { randomBytes } from 'node:crypto';
import type { SessionActor } from '../../session/actor.js';
import { headerParam, parseCSeq, SipHeaders, type SipRequest } from '../../transport/sip/message.js';
import type { RtpSession } from '../../transport/sip/rtp-session.js';
import type { ServerTransaction } from '../../transport/sip/transactions.js';
import type { Flow } from '../../transport/sip/transport.js';
import { headerUri } from '../../transport/sip/caller.js';

export type CallState = 'setup' | 'answered' | 'confirmed' | 'ended';
/** Why a call ended: the caller (BYE, CANCEL), the persona, the session (`local`), or the network. */
export type CallEnd = 'caller_bye' | 'cancel' | 'persona_hangup' | 'local' | 'rtp_timeout' | 'no_ack';

export class Call {
  state: CallState = 'setup';
  cancelled = false;
  readonly localTag = randomBytes(6).toString('hex');
  readonly remoteTag: string;
  readonly callId: string;
  /** The caller's Contact: where in-dialog requests go (§12.1.1). */
  remoteTarget: string;
  /** Record-Route, in order: our Route set for in-dialog requests (§12.1.1). */
  readonly routeSet: string[];
  private localCseq = 1;
  session: SessionActor | null = null;
  rtp: RtpSession | null = null;
  /** The INVITE transaction whose 2xx waits for an ACK, by CSeq number. */
  readonly invites = new Map<number, ServerTransaction>();
  /** Our last SDP answer and its o= version (re-INVITEs reuse it with version + 1). */
  sdpVersion = 1;
  readonly sdpSessionId = String(Date.now());
  /** Ends the session and media once; set by the UAS. */
  onEnd: ((why: CallEnd) => void) | null = null;

  constructor(
    readonly invite: SipRequest,
    readonly flow: Flow,
  ) {
    this.callId = invite.headers.get('call-id') ?? '';
    this.remoteTag = headerParam(invite.headers.get('from'), 'tag') ?? '';
    this.remoteTarget = headerUri(invite.headers.get('contact')) ?? headerUri(invite.headers.get('from')) ?? '';
    this.routeSet = invite.headers.all('record-route');
  }

  /** Dialog key: Call-ID and the caller's tag. */
  static keyOf(callId: string, remoteTag: string): string {
    return `${callId}|${remoteTag}`;
  }

  get key(): string {
    return Call.keyOf(this.callId, this.remoteTag);
  }

  /** A BYE from us (§15.1.1): From is our side of the dialog, To theirs, a fresh CSeq. */
  bye(via: string): SipRequest {
    const headers = new SipHeaders();
    headers.set('via', via);
    headers.set('max-forwards', '70');
    headers.set('from', withTag(this.invite.headers.get('to') ?? '', this.localTag));
    headers.set('to', this.invite.headers.get('from') ?? '');
    headers.set('call-id', this.callId);
    const inviteSeq = parseCSeq(this.invite.headers.get('cseq'))?.seq ?? 0;
    // Our CSeq space is our own; starting above the caller's keeps logs readable.
    headers.set('cseq', `${inviteSeq + this.localCseq++} BYE`);
    if (this.routeSet.length) headers.set('route', this.routeSet);
    return { type: 'request', method: 'BYE', uri: this.remoteTarget, headers, body: Buffer.alloc(0) };
  }
}

function withTag(value: string, tag: string): string {
  return /;\s*tag=/i.test(value) ? value : `${value};tag=${tag}`;
}
