/*
 * Answering an admitted INVITE with a persona: the offer is checked, the call rings, RTP opens, the
 * session opens on the caller's ticket (the first minute is charged), then 200 with the SDP answer.
 */
import net from 'node:net';
import type { AudioEncoding } from '../../domain/frames.js';
import type { Refusal, Ticket } from '../../session/admission.js';
import type { SessionOptions } from '../../session/types.js';
import type { StartInfo } from '../../transport/types.js';
import { calledNumber, callerNumber } from '../../transport/sip/caller.js';
import { responseTo, type SipRequest } from '../../transport/sip/message.js';
import type { RtpSession } from '../../transport/sip/rtp-session.js';
import { buildAnswer, parseSdp, SdpError, type Negotiated, type SdpSession } from '../../transport/sip/sdp.js';
import { checkOffer, type MediaLimits } from '../../transport/sip/sdp-check.js';
import type { ServerTransaction } from '../../transport/sip/transactions.js';
import type { Call } from './call.js';
import { ALLOW, HONEYPOT_USER, hostPort, type SipContext } from './context.js';
import { media, wire } from './media.js';
import type { SipRefusal } from './refusals.js';

/** Why an admitted INVITE was not answered: the caller's offer, or the first minute that could not be charged. */
export type Unanswered = { offer: SipRefusal } | { admission: Refusal };

/**
 * Answers with a persona, or returns why not. The ticket's slot goes with the session, or is released
 * when there is none (refused, cancelled, failed).
 */
export async function answer(
  ctx: SipContext,
  txn: ServerTransaction,
  req: SipRequest,
  call: Call,
  ticket: Ticket,
  options: SessionOptions,
): Promise<Unanswered | null> {
  let rtp: RtpSession | null = null;
  try {
    const offer = offerOf(req);
    if ('status' in offer) return release(ticket, { offer });
    const chosen = checkedOffer(ctx, offer, false);
    if ('status' in chosen) return release(ticket, { offer: chosen });
    txn.send(responseTo(req, 180, { toTag: call.localTag }));
    if (ctx.opts.ringMs) await new Promise((r) => setTimeout(r, ctx.opts.ringMs));
    if (call.cancelled) return release(ticket, null);
    rtp = media(ctx, call, chosen);
    const rtpPort = await rtp.open();
    if (call.cancelled) {
      rtp.close();
      return release(ticket, null);
    }
    const opened = await ticket.open('sip', sessionStart(call, req, chosen), options);
    if (!opened.ok) {
      rtp.close();
      return { admission: opened.refusal };
    }
    const session = opened.value;
    wire(ctx, call, session, rtp);
    if (call.cancelled) {
      call.onEnd?.('cancel');
      return null;
    }
    const sdp = buildAnswer(offer, chosen, {
      address: ctx.advertised,
      port: rtpPort,
      sessionId: call.sdpSessionId,
      version: call.sdpVersion,
    });
    call.state = 'answered';
    txn.onNoAck(() => {
      ctx.log.warn({ callId: call.callId }, 'no ACK for 200 OK; ending the call');
      call.onEnd?.('no_ack');
    });
    txn.send(responseTo(req, 200, { toTag: call.localTag, headers: answerHeaders(ctx, call), body: Buffer.from(sdp) }));
    ctx.supervisor.start(session);
    return null;
  } catch (err) {
    rtp?.close();
    ticket.release();
    throw err;
  }
}

function release<T>(ticket: Ticket, result: T): T {
  ticket.release();
  return result;
}

function notAcceptable(why: string): SipRefusal {
  return { status: 488, reason: `Not Acceptable Here (${why})` };
}

/** The SDP offer of an INVITE or re-INVITE, or the refusal naming what is wrong with it. */
export function offerOf(req: SipRequest): SdpSession | SipRefusal {
  const type = req.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (req.body.length === 0 || type !== 'application/sdp') {
    return notAcceptable('an SDP offer is required in the INVITE');
  }
  try {
    return parseSdp(req.body.toString('utf8'));
  } catch (err) {
    if (err instanceof SdpError) return { status: 400, reason: `Bad Request (${err.message})` };
    throw err;
  }
}

/** The offer checked against what this node may send to; a refusal names the field. */
export function checkedOffer(ctx: SipContext, offer: SdpSession, holdAllowed: boolean): Negotiated | SipRefusal {
  const chosen = checkOffer(offer, mediaLimits(ctx, holdAllowed));
  return typeof chosen === 'string' ? notAcceptable(chosen) : chosen;
}

function mediaLimits(ctx: SipContext, holdAllowed: boolean): MediaLimits {
  return { families: net.isIPv6(ctx.opts.host) ? 'any' : 'IP4', holdAllowed };
}

export function answerHeaders(ctx: SipContext, call: Call): Record<string, string> {
  const transport = call.flow.protocol === 'TCP' ? ';transport=tcp' : '';
  return {
    contact: `<sip:${HONEYPOT_USER}@${hostPort(ctx)}${transport}>`,
    allow: ALLOW,
    'content-type': 'application/sdp',
  };
}

/** The session's start, as a socket's start message would give it. */
function sessionStart(call: Call, req: SipRequest, chosen: Negotiated): StartInfo {
  const encoding: AudioEncoding = chosen.codec === 'PCMU' ? 'mulaw' : 'alaw';
  const from = callerNumber(req);
  const to = calledNumber(req);
  return {
    callId: call.callId,
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    audio: { encoding, sampleRate: 8000 },
    params: {},
  };
}
