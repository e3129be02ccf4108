/*
 * A call's media and its end: RTP to and from the session, and the BYE that ends the call from our side.
 */
import net from 'node:net';
import { parseUri } from 'sip';
import { frameTally } from '../../observability/metrics.js';
import type { SessionActor } from '../../session/actor.js';
import { RtpSession } from '../../transport/sip/rtp-session.js';
import type { Negotiated } from '../../transport/sip/sdp.js';
import type { Flow } from '../../transport/sip/transport.js';
import type { Call, CallEnd } from './call.js';
import { hostPort, type SipContext } from './context.js';

/** After a persona's last words, how long the BYE may wait for them to play out. */
const HANGUP_DRAIN_MS = 10_000;

/** The call's RTP: caller audio and keys into its session; silence or a send failure ends the call. */
export function media(ctx: SipContext, call: Call, chosen: Negotiated): RtpSession {
  const rtp = new RtpSession({
    host: ctx.opts.host,
    ports: ctx.opts.rtpPorts,
    payloadType: chosen.payloadType,
    ...(chosen.dtmfPayloadType !== undefined ? { dtmfPayloadType: chosen.dtmfPayloadType } : {}),
    silenceByte: chosen.codec === 'PCMU' ? 0xff : 0xd5,
    peerAddress: call.flow.address,
    mediaPeer: (address) => ctx.mediaPeers.check(address, net.isIPv6(address) ? 'ipv6' : 'ipv4'),
    timeoutMs: ctx.opts.rtpTimeoutMs,
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
      ctx.log.info({ callId: call.callId }, 'no RTP from the caller; hanging up');
      call.onEnd?.('rtp_timeout');
    },
    onSendError: (err) => {
      ctx.log.error({ err, callId: call.callId }, 'sending RTP failed; hanging up');
      call.onEnd?.('local');
    },
  });
  rtp.setRemote(chosen.remoteAddress, chosen.remotePort);
  call.rtp = rtp;
  return rtp;
}

/** Persona audio to RTP; the session's end to BYE; the call's end to the session. */
export function wire(ctx: SipContext, call: Call, session: SessionActor, rtp: RtpSession): void {
  call.session = session;
  let ending = false;
  const sendBye = (): void => {
    if (call.state === 'ended') return;
    call.state = 'ended';
    const sent = bye(ctx, call).finally(() => ctx.byes.delete(sent));
    ctx.byes.add(sent);
  };
  call.onEnd = (why) => {
    if (ending) return;
    ending = true;
    rtp.close();
    ctx.log.info({ callId: call.callId, why, rtpIn: rtp.received, rtpOut: rtp.sent }, 'call ended');
    ctx.calls.delete(call.key);
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

async function bye(ctx: SipContext, call: Call): Promise<void> {
  const via = `SIP/2.0/${call.flow.protocol} ${hostPort(ctx)};rport`;
  const res = await ctx.layer.request(byeFlow(ctx, call), call.bye(via));
  ctx.log.info({ callId: call.callId, status: res?.status ?? 'timeout' }, 'BYE sent');
}

/**
 * Where our BYE goes: back along the INVITE's flow; over TCP, when that connection is gone, a new
 * one to the caller's Contact (an address; names are not resolved here).
 */
function byeFlow(ctx: SipContext, call: Call): Flow {
  if (ctx.transport.isOpen(call.flow)) return call.flow;
  const contact = parseUri(call.remoteTarget);
  if (!contact || net.isIP(contact.host) === 0) return call.flow;
  return { protocol: 'TCP', address: contact.host, port: contact.port || 5060 };
}
