import { expect } from 'chai';
import dgram from 'node:dgram';
import type { SipResponse } from '../../src/transport/sip/message.js';
import { parseRtp } from '../../src/transport/sip/rtp.js';
import { startSipHarness, until, type SipHarness } from '../fixtures/sipp/harness.js';
import {
  answerMedia,
  newIds,
  offerSdp,
  PEER_HOST,
  request,
  RtpPeer,
  SipPeer,
  type DialogIds,
} from '../fixtures/sipp/peer.js';

const THIRD_HOST = '127.0.0.3';

/**
 * The honeypot's RTP goes only to the host that called: an offer naming another address (a victim, or
 * a private address behind NAT) gets nothing until the caller's own RTP arrives, and then media goes back
 * to that packet's source. A configured trunk peer may be named instead. Real UDP sockets throughout.
 */
describe('sip media: no RTP to a host that did not call', function () {
  this.timeout(60_000);
  const closers: Array<{ close(): unknown }> = [];
  let h: SipHarness | undefined;
  afterEach(async () => {
    for (const c of closers.splice(0)) await c.close();
    await h?.close();
    h = undefined;
  });

  /** A socket on the third host, counting every datagram that reaches it. */
  async function thirdParty(): Promise<{ port: number; got: number; rtp: number }> {
    // An even port, as an offer must name.
    let sock = dgram.createSocket('udp4');
    await new Promise<void>((r) => sock.bind(0, THIRD_HOST, () => r()));
    while (sock.address().port % 2 !== 0) {
      const odd = sock;
      sock = dgram.createSocket('udp4');
      await new Promise<void>((r) => sock.bind(0, THIRD_HOST, () => r()));
      odd.close();
    }
    closers.push(sock);
    const seen = { port: sock.address().port, got: 0, rtp: 0 };
    sock.on('message', (d) => {
      seen.got++;
      if (parseRtp(d)) seen.rtp++;
    });
    return seen;
  }

  async function call(
    h: SipHarness,
    mediaHost: string,
    mediaPort: number,
  ): Promise<{ peer: SipPeer; ids: DialogIds; ok: SipResponse }> {
    const peer = await SipPeer.udp(h.target);
    closers.push(peer);
    const ids = newIds();
    const uri = `sip:honeypot@127.0.0.1:${h.target.port}`;
    const body = offerSdp(mediaPort).replace(`c=IN IP4 ${PEER_HOST}`, `c=IN IP4 ${mediaHost}`);
    peer.send(
      request({
        method: 'INVITE',
        uri,
        ids,
        peer,
        headers: { 'X-Service-Key': h.server.key, 'X-Report': 'false' },
        body,
      }),
    );
    const ok = await peer.response(200, 'INVITE', 20_000);
    const tag = /;tag=([^;\s]+)/.exec(ok.headers.get('to')!)![1]!;
    peer.send(request({ method: 'ACK', uri, ids: { ...ids, branch: `${ids.branch}ack` }, peer, toTag: tag }));
    return { peer, ids, ok };
  }

  it('an offer naming a third host: nothing goes there; after the caller’s first packet, media goes back to its source', async () => {
    h = await startSipHarness({ sip: { rtpTimeoutMs: 60_000 } });
    const victim = await thirdParty();
    const caller = await RtpPeer.open();
    closers.push(caller);
    const { ok } = await call(h, THIRD_HOST, victim.port);
    // The caller speaks from its own address (as behind NAT, from a port the offer never named).
    caller.to(answerMedia(ok).host, answerMedia(ok).port);
    const talk = setInterval(() => caller.audio(), 20);
    try {
      await until(() => caller.packets.length > 10, 60_000, 'persona audio back at the caller’s source');
    } finally {
      clearInterval(talk);
    }
    expect(caller.sources.every((s) => s.address === '127.0.0.1')).to.equal(true);
    expect(victim.got, 'datagrams at the third host').to.equal(0);
  });

  it('a configured media peer may be named: the trunk’s media server gets the call’s RTP', async () => {
    h = await startSipHarness({ sip: { mediaPeers: [`${THIRD_HOST}/32`], rtpTimeoutMs: 60_000 } });
    const trunkMedia = await thirdParty();
    await call(h, THIRD_HOST, trunkMedia.port);
    await until(() => trunkMedia.rtp > 10, 30_000, 'persona audio at the media peer');
  });
});
