/*
 * The honeypot's SIP entry point: a UAS on UDP and TCP. INVITE `sip:honeypot@host` with
 * X-Service-Key is answered by a persona; an INVITE to a registered SIP-firewall domain is declined,
 * handed to a persona or redirected, by the caller's complaint status and the domain's settings.
 * Every answered call is one honeypot session (protocol `sip`) fed by the call's RTP.
 */
import net from 'node:net';
import os from 'node:os';
import { parseUri } from 'sip';
import { LIVE_PROFILES } from '../../../pipelines/live/profile.js';
import type { AudioEncoding } from '../../domain/frames.js';
import type { Logger } from '../../log.js';
import { frameTally, metrics } from '../../observability/metrics.js';
import { authenticate } from '../../server/auth.js';
import type { RequestLimits } from '../../server/rate-limit.js';
import type { Services } from '../../services.js';
import type { SessionActor } from '../../session/actor.js';
import { mergeOptions } from '../../session/options.js';
import { InsufficientCreditsError, type Supervisor } from '../../session/supervisor.js';
import type { Reservation } from '../../session/types.js';
import type { Domain, KeyRecord } from '../../store/types.js';
import { Call, type CallEnd } from './call.js';
import { calledNumber, callerNumber, headerUri } from './caller.js';
import { domainCandidates, firewallAction } from './firewall.js';
import { headerParam, missingMandatory, parseCSeq, responseTo, type SipRequest } from './message.js';
import { RtpSession, type PortRange } from './rtp-session.js';
import { buildAnswer, parseSdp, SdpError, type Negotiated, type SdpSession } from './sdp.js';
import { checkOffer, type MediaLimits } from './sdp-check.js';
import { RFC3261_TIMERS, TransactionLayer, type ServerTransaction, type SipTimers } from './transactions.js';
import { SipTransport, stampVia, type Flow } from './transport.js';

/** Methods the UAS implements (OPTIONS and 405 answers list them). */
export const ALLOW = 'INVITE, ACK, CANCEL, BYE, OPTIONS';
/** Methods we know but do not take on this entry point: 405, not 501. */
const KNOWN_NOT_ALLOWED = new Set([
  'REGISTER',
  'SUBSCRIBE',
  'NOTIFY',
  'REFER',
  'MESSAGE',
  'INFO',
  'UPDATE',
  'PRACK',
  'PUBLISH',
]);
/** The user part that reaches the honeypot with an API key. */
export const HONEYPOT_USER = 'honeypot';
/** After a persona's last words, how long the BYE may wait for them to play out. */
const HANGUP_DRAIN_MS = 10_000;

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
  /** The node's request limits: out-of-dialog requests take from the sender address's bucket. */
  limits?: RequestLimits;
  timers?: SipTimers;
}

interface Owner {
  key: KeyRecord;
  /** Signs the session's webhook posts. */
  signingKey: string;
}

type Refusal = { status: number; reason: string };

export class SipServer {
  readonly transport: SipTransport;
  private readonly layer: TransactionLayer;
  private readonly calls = new Map<string, Call>();
  private readonly log: Logger;
  private readonly advertised: string;
  private accepting = true;
  private readonly byes = new Set<Promise<void>>();
  private readonly mediaPeers = new net.BlockList();

  constructor(
    private readonly services: Services,
    private readonly supervisor: Supervisor,
    private readonly opts: SipServerOptions,
  ) {
    this.log = services.log.child({ component: 'sip' });
    this.transport = new SipTransport({
      host: opts.host,
      port: opts.port,
      onMessage: (m) => this.layer.receive(m),
      onError: (err, context) => this.log.debug({ err, context }, 'sip transport'),
    });
    this.layer = new TransactionLayer(this.transport, opts.timers ?? RFC3261_TIMERS, {
      onRequest: (txn) => this.request(txn),
      onCancel: (cancel, invite) => this.cancel(cancel, invite),
      onAck: (ack) => this.ack(ack),
    });
    this.advertised = opts.advertisedAddress ?? advertisedAddress(opts.host);
    for (const block of opts.mediaPeers ?? []) {
      const [address = '', prefix] = block.split('/');
      const type = net.isIPv6(address) ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.mediaPeers.addAddress(address, type);
      else this.mediaPeers.addSubnet(address, Number(prefix), type);
    }
  }

  get port(): number {
    return this.transport.port;
  }

  /** Live dialogs (tests and drain). */
  get activeCalls(): number {
    return this.calls.size;
  }

  async listen(): Promise<number> {
    const port = await this.transport.listen();
    this.log.info({ host: this.opts.host, port, advertised: this.advertised }, 'sip listening');
    return port;
  }

  /** Stops taking calls (503), waits for live calls to end (their sessions are drained elsewhere), closes. */
  async drain(ms: number): Promise<void> {
    this.accepting = false;
    const t0 = Date.now();
    while (this.calls.size > 0 && Date.now() - t0 < ms) await new Promise((r) => setTimeout(r, 50));
    // Give the BYEs of the calls that just ended their answer (or their time-out) before closing.
    await Promise.race([
      Promise.allSettled([...this.byes]),
      new Promise((r) => setTimeout(r, Math.max(0, ms - (Date.now() - t0)))),
    ]);
    await this.close();
  }

  async close(): Promise<void> {
    this.accepting = false;
    for (const call of [...this.calls.values()]) call.onEnd?.('local');
    this.layer.close();
    await this.transport.close();
  }

  // ---- requests ---------------------------------------------------------------------------------

  private request(txn: ServerTransaction): void {
    const req = stamped(txn.request, txn.flow);
    const missing = missingMandatory(req);
    if (missing) return txn.send(responseTo(req, 400, { reason: `Bad Request (missing or malformed ${missing})` }));
    const inDialog = headerParam(req.headers.get('to'), 'tag') !== undefined;
    if (!inDialog && this.opts.limits) {
      const take = this.opts.limits.address(txn.flow.address);
      if (!take.ok) {
        metrics.rejected.inc({ status: '503', entry: 'sip' });
        return txn.send(
          responseTo(req, 503, {
            reason: 'Service Unavailable (rate limit exceeded)',
            headers: { 'retry-after': String(take.retryAfterSeconds) },
          }),
        );
      }
    }
    // No SIP extension is supported: a request that requires one is refused (§8.2.2.3).
    const required = req.headers.all('require');
    if (required.length && req.method !== 'CANCEL' && req.method !== 'BYE') {
      return txn.send(responseTo(req, 420, { headers: { unsupported: required.join(', ') } }));
    }
    switch (req.method) {
      case 'INVITE':
        return inDialog ? this.reinvite(txn, req) : void this.invite(txn, req);
      case 'BYE':
        return this.byeFromCaller(txn, req);
      case 'OPTIONS':
        return txn.send(
          responseTo(req, 200, {
            toTag: headerParam(req.headers.get('to'), 'tag') ? undefined : 'options',
            headers: { allow: ALLOW, accept: 'application/sdp', supported: '' },
          }),
        );
      default:
        if (KNOWN_NOT_ALLOWED.has(req.method)) return txn.send(responseTo(req, 405, { headers: { allow: ALLOW } }));
        return txn.send(responseTo(req, 501, { headers: { allow: ALLOW } }));
    }
  }

  private async invite(txn: ServerTransaction, req: SipRequest): Promise<void> {
    txn.send(responseTo(req, 100));
    const call = new Call(req, txn.flow);
    if (this.calls.has(call.key)) return txn.send(responseTo(req, 482, { reason: 'Loop Detected' }));
    this.calls.set(call.key, call);
    call.invites.set(parseCSeq(req.headers.get('cseq'))!.seq, txn);
    const refuse = (r: Refusal, headers: Record<string, string> = {}): void => {
      this.calls.delete(call.key);
      if (r.status === 503) metrics.rejected.inc({ status: '503', entry: 'sip' });
      if (txn.pending) txn.send(responseTo(req, r.status, { reason: r.reason, toTag: call.localTag, headers }));
    };
    try {
      if (!this.accepting) return refuse({ status: 503, reason: 'Service Unavailable (node shutting down)' });
      const uri = parseUri(req.uri);
      if (!uri) return refuse({ status: 416, reason: 'Unsupported URI Scheme' });
      if (uri.user?.toLowerCase() === HONEYPOT_USER) return await this.honeypotEntry(txn, req, call, refuse);
      const toHost = parseUri(headerUri(req.headers.get('to')) ?? '')?.host;
      for (const id of domainCandidates(uri.host, toHost)) {
        const domain = await this.services.store.domains.get(id);
        if (domain) return await this.firewall(txn, req, call, domain, refuse);
      }
      return refuse({ status: 404, reason: 'Not Found' });
    } catch (err) {
      this.log.error({ err, callId: call.callId }, 'INVITE failed');
      call.onEnd?.('local');
      refuse({ status: 500, reason: 'Server Internal Error' });
    }
  }

  private async honeypotEntry(
    txn: ServerTransaction,
    req: SipRequest,
    call: Call,
    refuse: (r: Refusal) => void,
  ): Promise<void> {
    const rawKey = req.headers.get('x-service-key')?.trim();
    if (!rawKey) return refuse({ status: 403, reason: 'Forbidden (X-Service-Key missing)' });
    const key = await authenticate(this.services.store, rawKey);
    if (!key) return refuse({ status: 403, reason: 'Forbidden (wrong X-Service-Key)' });
    const options = {
      persona: req.headers.get('x-persona'),
      webhook: req.headers.get('x-webhook'),
      report: req.headers.get('x-report'),
    };
    const refusal = await this.answer(txn, req, call, { key, signingKey: rawKey }, options);
    if (refusal) refuse(refusal);
  }

  private async firewall(
    txn: ServerTransaction,
    req: SipRequest,
    call: Call,
    domain: Domain,
    refuse: (r: Refusal, headers?: Record<string, string>) => void,
  ): Promise<void> {
    const caller = callerNumber(req);
    const filed = caller ? (await this.services.store.complaints.status(caller)).reported : false;
    const decision = firewallAction(domain, filed);
    this.log.info({ domain: domain.id, filed, action: decision.action, callId: call.callId }, 'sip firewall');
    switch (decision.action) {
      case 'forward':
        return refuse({ status: 302, reason: 'Moved Temporarily' }, { contact: `<${decision.uri}>` });
      case 'unavailable':
        return refuse({ status: 480, reason: 'Temporarily Unavailable (no forward_uri for this domain)' });
      case 'decline':
        return refuse({ status: 603, reason: 'Decline' });
      case 'honeypot': {
        const key = (await this.services.store.keys.list()).find((k) => k.id === domain.key_id);
        if (!key) return refuse({ status: 603, reason: 'Decline' });
        const refusal = await this.answer(
          txn,
          req,
          call,
          { key, signingKey: domain.webhook_secret ?? '' },
          { persona: domain.persona, webhook: domain.webhook_secret ? domain.webhook : undefined, report: 'true' },
        );
        // A filed caller the honeypot cannot take (off, full, no credits) is still declined; a malformed
        // offer is the caller's own fault and is told so (400/488 naming the field), as on the keyed entry.
        if (refusal)
          refuse(refusal.status === 400 || refusal.status === 488 ? refusal : { status: 603, reason: 'Decline' });
        return;
      }
    }
  }

  /**
   * Answers with a persona: checks the feature, the offer, capacity and credits, opens RTP and the
   * session, then 180 and 200 with the SDP answer. Returns the refusal instead when one applies.
   */
  private async answer(
    txn: ServerTransaction,
    req: SipRequest,
    call: Call,
    owner: Owner,
    headerOptions: Record<string, string | undefined>,
  ): Promise<Refusal | null> {
    if (!this.services.config.features.has('honeypot') || !this.supervisor.hasPipeline('honeypot')) {
      return { status: 503, reason: 'Service Unavailable (honeypot is off on this deployment)' };
    }
    const offer = this.offerOf(req);
    if ('status' in offer) return offer;
    const chosen = checkOffer(offer, this.mediaLimits(false));
    if (typeof chosen === 'string') return { status: 488, reason: `Not Acceptable Here (${chosen})` };
    const reservation = this.supervisor.reserve();
    if (!reservation) return { status: 503, reason: 'Service Unavailable (node at its live session limit)' };
    let rtp: RtpSession | null = null;
    try {
      const price = LIVE_PROFILES.honeypot.minutePrice(false);
      if ((await this.services.store.keys.balance(owner.key.id)) < price) {
        reservation.release();
        return { status: 402, reason: `Payment Required (the first minute costs ${price} credits)` };
      }
      txn.send(responseTo(req, 180, { toTag: call.localTag }));
      if (this.opts.ringMs) await new Promise((r) => setTimeout(r, this.opts.ringMs));
      if (call.cancelled) {
        reservation.release();
        return null;
      }
      rtp = this.media(call, chosen);
      const rtpPort = await rtp.open();
      if (call.cancelled) {
        rtp.close();
        reservation.release();
        return null;
      }
      const session = await this.open(call, req, owner, chosen, headerOptions, reservation);
      if (!session) {
        rtp.close();
        return { status: 402, reason: `Payment Required (the first minute costs ${price} credits)` };
      }
      this.wire(call, session, rtp);
      if (call.cancelled) {
        call.onEnd?.('cancel');
        return null;
      }
      const sdp = buildAnswer(offer, chosen, {
        address: this.advertised,
        port: rtpPort,
        sessionId: call.sdpSessionId,
        version: call.sdpVersion,
      });
      call.state = 'answered';
      txn.onNoAck(() => {
        this.log.warn({ callId: call.callId }, 'no ACK for 200 OK; ending the call');
        call.onEnd?.('no_ack');
      });
      txn.send(
        responseTo(req, 200, {
          toTag: call.localTag,
          headers: this.answerHeaders(call),
          body: Buffer.from(sdp),
        }),
      );
      this.supervisor.start(session);
      return null;
    } catch (err) {
      rtp?.close();
      reservation.release();
      throw err;
    }
  }

  private offerOf(req: SipRequest): SdpSession | Refusal {
    const type = req.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (req.body.length === 0 || type !== 'application/sdp') {
      return { status: 488, reason: 'Not Acceptable Here (an SDP offer is required in the INVITE)' };
    }
    try {
      return parseSdp(req.body.toString('utf8'));
    } catch (err) {
      if (err instanceof SdpError) return { status: 400, reason: `Bad Request (${err.message})` };
      throw err;
    }
  }

  private mediaLimits(holdAllowed: boolean): MediaLimits {
    return { families: net.isIPv6(this.opts.host) ? 'any' : 'IP4', holdAllowed };
  }

  private answerHeaders(call: Call): Record<string, string> {
    const transport = call.flow.protocol === 'TCP' ? ';transport=tcp' : '';
    const host = this.advertised.includes(':') ? `[${this.advertised}]` : this.advertised;
    return {
      contact: `<sip:${HONEYPOT_USER}@${host}:${this.port}${transport}>`,
      allow: ALLOW,
      'content-type': 'application/sdp',
    };
  }

  private media(call: Call, chosen: Negotiated): RtpSession {
    const rtp = new RtpSession({
      host: this.opts.host,
      ports: this.opts.rtpPorts,
      payloadType: chosen.payloadType,
      ...(chosen.dtmfPayloadType !== undefined ? { dtmfPayloadType: chosen.dtmfPayloadType } : {}),
      silenceByte: chosen.codec === 'PCMU' ? 0xff : 0xd5,
      peerAddress: call.flow.address,
      mediaPeer: (address) => this.mediaPeers.check(address, net.isIPv6(address) ? 'ipv6' : 'ipv4'),
      timeoutMs: this.opts.rtpTimeoutMs,
      onAudio: (data) => {
        frameTally.audio++;
        frameTally.audioBytes += data.byteLength;
        call.session?.push({ kind: 'audio', track: 'inbound', data });
      },
      onDigit: (digit) => {
        frameTally.dtmf++;
        call.session?.push({ kind: 'dtmf', digit });
      },
      onTimeout: () => {
        this.log.info({ callId: call.callId }, 'no RTP from the caller; hanging up');
        call.onEnd?.('rtp_timeout');
      },
      onSendError: (err) => {
        this.log.error({ err, callId: call.callId }, 'sending RTP failed; hanging up');
        call.onEnd?.('local');
      },
    });
    rtp.setRemote(chosen.remoteAddress, chosen.remotePort);
    call.rtp = rtp;
    return rtp;
  }

  /** Opens the honeypot session (charges the first minute); null when credits fall short. */
  private async open(
    call: Call,
    req: SipRequest,
    owner: Owner,
    chosen: Negotiated,
    headerOptions: Record<string, string | undefined>,
    reservation: Reservation,
  ): Promise<SessionActor | null> {
    const encoding: AudioEncoding = chosen.codec === 'PCMU' ? 'mulaw' : 'alaw';
    const from = callerNumber(req);
    const to = calledNumber(req);
    const spec = {
      kind: 'honeypot' as const,
      protocol: 'sip' as const,
      key: owner.key,
      rawKey: owner.signingKey,
      start: {
        callId: call.callId,
        ...(from ? { from } : {}),
        ...(to ? { to } : {}),
        audio: { encoding, sampleRate: 8000 },
        params: {},
      },
      options: mergeOptions('honeypot', headerOptions, {}),
    };
    try {
      return await this.supervisor.open(spec, reservation);
    } catch (err) {
      reservation.release();
      if (err instanceof InsufficientCreditsError) return null;
      throw err;
    }
  }

  /** Persona audio to RTP; the session's end to BYE; the call's end to the session. */
  private wire(call: Call, session: SessionActor, rtp: RtpSession): void {
    call.session = session;
    let ending = false;
    const sendBye = (): void => {
      if (call.state === 'ended') return;
      call.state = 'ended';
      const sent = this.bye(call).finally(() => this.byes.delete(sent));
      this.byes.add(sent);
    };
    call.onEnd = (why) => {
      if (ending) return;
      ending = true;
      rtp.close();
      this.log.info({ callId: call.callId, why, rtpIn: rtp.received, rtpOut: rtp.sent }, 'call ended');
      this.calls.delete(call.key);
      if (why !== 'caller_bye' && why !== 'cancel') sendBye();
      else call.state = 'ended';
      session.push({
        kind: 'stop',
        reason: why === 'caller_bye' || why === 'cancel' ? 'stop' : why === 'local' ? 'shutdown' : 'hangup',
      });
    };
    // Whatever ends the call from our side lets the persona's queued words play out first.
    const finish = (why: CallEnd): void => {
      const deadline = new Promise((r) => setTimeout(r, HANGUP_DRAIN_MS).unref?.());
      void Promise.race([rtp.drained(), deadline]).then(() => call.onEnd?.(why));
    };
    session.outbound$.subscribe(
      session.guard((f) => {
        if (f.kind === 'audio') rtp.play(f.data);
        else if (f.kind === 'clear') rtp.clear();
        else if (f.kind === 'hangup') finish('persona_hangup');
      }),
    );
    // Time limit, credits, shutdown or the persona: the session is over, so is the call.
    const over = session.guard<void>(() => finish('local'));
    session.events$.subscribe({ complete: () => over() });
  }

  private async bye(call: Call): Promise<void> {
    const via = `SIP/2.0/${call.flow.protocol} ${this.viaHost()};rport`;
    const res = await this.layer.request(this.byeFlow(call), call.bye(via));
    this.log.info({ callId: call.callId, status: res?.status ?? 'timeout' }, 'BYE sent');
  }

  /**
   * Where our BYE goes: back along the INVITE's flow; over TCP, when that connection is gone, a new
   * one to the caller's Contact (an address; names are not resolved here).
   */
  private byeFlow(call: Call): Flow {
    if (this.transport.isOpen(call.flow)) return call.flow;
    const contact = parseUri(call.remoteTarget);
    if (!contact || net.isIP(contact.host) === 0) return call.flow;
    return { protocol: 'TCP', address: contact.host, port: contact.port || 5060 };
  }

  private viaHost(): string {
    const host = this.advertised.includes(':') ? `[${this.advertised}]` : this.advertised;
    return `${host}:${this.port}`;
  }

  // ---- in-dialog requests ------------------------------------------------------------------------

  private findCall(req: SipRequest): Call | undefined {
    const callId = req.headers.get('call-id') ?? '';
    const fromTag = headerParam(req.headers.get('from'), 'tag') ?? '';
    const call = this.calls.get(Call.keyOf(callId, fromTag));
    const toTag = headerParam(req.headers.get('to'), 'tag');
    return call && (toTag === undefined || toTag === call.localTag) ? call : undefined;
  }

  private ack(ack: SipRequest): void {
    const call = this.findCall(ack);
    if (!call) return;
    const seq = parseCSeq(ack.headers.get('cseq'))?.seq;
    const txn = seq === undefined ? undefined : call.invites.get(seq);
    if (!txn) return;
    txn.acked();
    call.invites.delete(seq!);
    if (call.state === 'answered') call.state = 'confirmed';
  }

  private byeFromCaller(txn: ServerTransaction, req: SipRequest): void {
    const call = this.findCall(req);
    if (!call) return txn.send(responseTo(req, 481));
    txn.send(responseTo(req, 200));
    this.log.info({ callId: call.callId }, 'caller hung up');
    if (call.state === 'setup') {
      // Hung up before we answered: like a CANCEL, the INVITE ends with 487 and no session starts.
      call.cancelled = true;
      this.calls.delete(call.key);
      for (const t of call.invites.values()) {
        if (t.pending) t.send(responseTo(t.request, 487, { toTag: call.localTag }));
      }
      return;
    }
    // A BYE before our 2xx was ACKed still ends it (§15.1.2); the pending INVITE needs nothing more.
    for (const t of call.invites.values()) t.acked();
    call.onEnd?.('caller_bye');
  }

  private cancel(cancel: ServerTransaction, invite: ServerTransaction | undefined): void {
    const req = cancel.request;
    if (!invite) return cancel.send(responseTo(req, 481));
    cancel.send(responseTo(req, 200));
    if (!invite.pending) return; // already answered: the CANCEL has no effect (§9.2)
    const fromTag = headerParam(invite.request.headers.get('from'), 'tag') ?? '';
    const call = this.calls.get(Call.keyOf(invite.request.headers.get('call-id') ?? '', fromTag));
    if (call) {
      call.cancelled = true;
      this.calls.delete(call.key);
      call.onEnd?.('cancel');
    }
    invite.send(responseTo(invite.request, 487, { toTag: call?.localTag ?? 'cancelled' }));
  }

  /** A re-INVITE (hold, codec refresh, new address): same codec answered again, new RTP target. */
  private reinvite(txn: ServerTransaction, req: SipRequest): void {
    const call = this.findCall(req);
    if (!call || call.state === 'ended') return txn.send(responseTo(req, 481));
    // A refused re-INVITE leaves the call as it was (RFC 3261 §14.2): media, session and dialog go on.
    const offer = this.offerOf(req);
    if ('status' in offer) return txn.send(responseTo(req, offer.status, { reason: offer.reason }));
    const chosen = checkOffer(offer, this.mediaLimits(true));
    if (typeof chosen === 'string') {
      return txn.send(responseTo(req, 488, { reason: `Not Acceptable Here (${chosen})` }));
    }
    if (call.session && (chosen.codec === 'PCMU') !== (call.session.spec.start.audio.encoding === 'mulaw')) {
      return txn.send(responseTo(req, 488, { reason: 'Not Acceptable Here (the codec cannot change mid-call)' }));
    }
    call.rtp?.setRemote(chosen.remoteAddress, chosen.remotePort);
    const target = headerUri(req.headers.get('contact'));
    if (target) call.remoteTarget = target;
    call.sdpVersion++;
    const sdp = buildAnswer(offer, chosen, {
      address: this.advertised,
      port: call.rtp?.port ?? 0,
      sessionId: call.sdpSessionId,
      version: call.sdpVersion,
    });
    call.invites.set(parseCSeq(req.headers.get('cseq'))!.seq, txn);
    txn.send(responseTo(req, 200, { headers: this.answerHeaders(call), body: Buffer.from(sdp) }));
  }
}

/** The request with `received`/`rport` stamped on its top Via, so responses carry them (§18.2.1). */
function stamped(req: SipRequest, flow: Flow): SipRequest {
  const vias = req.headers.all('via');
  if (vias.length === 0) return req;
  vias[0] = stampVia(vias[0]!, flow);
  req.headers.set('via', vias);
  return req;
}

function advertisedAddress(host: string): string {
  if (host !== '0.0.0.0' && host !== '::') return host;
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return '127.0.0.1';
}
