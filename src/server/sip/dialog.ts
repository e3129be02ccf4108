/*
 * Requests within a dialog (or about a pending INVITE): ACK, the caller's BYE, CANCEL and re-INVITE.
 */
import { headerUri } from '../../transport/sip/caller.js';
import { headerParam, parseCSeq, responseTo, type SipRequest } from '../../transport/sip/message.js';
import { buildAnswer } from '../../transport/sip/sdp.js';
import type { ServerTransaction } from '../../transport/sip/transactions.js';
import { answerHeaders, checkedOffer, offerOf } from './answer.js';
import { Call } from './call.js';
import type { SipContext } from './context.js';

function findCall(ctx: SipContext, req: SipRequest): Call | undefined {
  const callId = req.headers.get('call-id') ?? '';
  const fromTag = headerParam(req.headers.get('from'), 'tag') ?? '';
  const call = ctx.calls.get(Call.keyOf(callId, fromTag));
  const toTag = headerParam(req.headers.get('to'), 'tag');
  return call && (toTag === undefined || toTag === call.localTag) ? call : undefined;
}

export function ack(ctx: SipContext, req: SipRequest): void {
  const call = findCall(ctx, req);
  if (!call) return;
  const seq = parseCSeq(req.headers.get('cseq'))?.seq;
  const txn = seq === undefined ? undefined : call.invites.get(seq);
  if (!txn) return;
  txn.acked();
  call.invites.delete(seq!);
  if (call.state === 'answered') call.state = 'confirmed';
}

export function byeFromCaller(ctx: SipContext, txn: ServerTransaction, req: SipRequest): void {
  const call = findCall(ctx, req);
  if (!call) return txn.send(responseTo(req, 481));
  txn.send(responseTo(req, 200));
  ctx.log.info({ callId: call.callId }, 'caller hung up');
  if (call.state === 'setup') {
    // Hung up before we answered: like a CANCEL, the INVITE ends with 487 and no session starts.
    call.cancelled = true;
    ctx.calls.delete(call.key);
    for (const t of call.invites.values()) {
      if (t.pending) t.send(responseTo(t.request, 487, { toTag: call.localTag }));
    }
    return;
  }
  // A BYE before our 2xx was ACKed still ends it (§15.1.2); the pending INVITE needs nothing more.
  for (const t of call.invites.values()) t.acked();
  call.onEnd?.('caller_bye');
}

export function cancel(ctx: SipContext, txn: ServerTransaction, invite: ServerTransaction | undefined): void {
  const req = txn.request;
  if (!invite) return txn.send(responseTo(req, 481));
  txn.send(responseTo(req, 200));
  if (!invite.pending) return; // already answered: the CANCEL has no effect (§9.2)
  const fromTag = headerParam(invite.request.headers.get('from'), 'tag') ?? '';
  const call = ctx.calls.get(Call.keyOf(invite.request.headers.get('call-id') ?? '', fromTag));
  if (call) {
    call.cancelled = true;
    ctx.calls.delete(call.key);
    call.onEnd?.('cancel');
  }
  invite.send(responseTo(invite.request, 487, { toTag: call?.localTag ?? 'cancelled' }));
}

/** A re-INVITE (hold, codec refresh, new address): same codec answered again, new RTP target. */
export function reinvite(ctx: SipContext, txn: ServerTransaction, req: SipRequest): void {
  const call = findCall(ctx, req);
  if (!call || call.state === 'ended') return txn.send(responseTo(req, 481));
  // A refused re-INVITE leaves the call as it was (RFC 3261 §14.2): media, session and dialog go on.
  const offer = offerOf(req);
  if ('status' in offer) return txn.send(responseTo(req, offer.status, { reason: offer.reason }));
  const chosen = checkedOffer(ctx, offer, true);
  if ('status' in chosen) return txn.send(responseTo(req, chosen.status, { reason: chosen.reason }));
  if (call.session && (chosen.codec === 'PCMU') !== (call.session.spec.start.audio.encoding === 'mulaw')) {
    return txn.send(responseTo(req, 488, { reason: 'Not Acceptable Here (the codec cannot change mid-call)' }));
  }
  call.rtp?.setRemote(chosen.remoteAddress, chosen.remotePort);
  const target = headerUri(req.headers.get('contact'));
  if (target) call.remoteTarget = target;
  call.sdpVersion++;
  const sdp = buildAnswer(offer, chosen, {
    address: ctx.advertised,
    port: call.rtp?.port ?? 0,
    sessionId: call.sdpSessionId,
    version: call.sdpVersion,
  });
  call.invites.set(parseCSeq(req.headers.get('cseq'))!.seq, txn);
  txn.send(responseTo(req, 200, { headers: answerHeaders(ctx, call), body: Buffer.from(sdp) }));
}
