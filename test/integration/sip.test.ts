import { expect } from 'chai';
import { hashKey } from '../../src/server/auth.js';
import type { SipResponse } from '../../src/transport/sip/message.js';
import { startSipHarness, until, type SipHarness } from '../fixtures/sipp/harness.js';
import {
  answerMedia,
  mulawLevel,
  newIds,
  offerSdp,
  request,
  RtpPeer,
  SipPeer,
  type DialogIds,
} from '../fixtures/sipp/peer.js';

const CALLER = '+12025550123';

describe('sip honeypot entry (hand-built SIP over UDP and TCP)', function () {
  this.timeout(60_000);
  let h: SipHarness;
  let keyId: string;
  const peers: Array<{ close(): void }> = [];

  before(async () => {
    // A short ring leaves room for a CANCEL before the answer.
    h = await startSipHarness({ sip: { timers: { t1: 100, t2: 400, t4: 500 }, ringMs: 300 } });
    keyId = (await h.server.services.store.keys.findByHash(hashKey(h.server.key)))!.id;
  });
  after(async () => {
    for (const p of peers) p.close();
    await h.close();
  });
  beforeEach(() => {
    h.receiver.posts.length = 0;
  });

  async function udpPeer(): Promise<SipPeer> {
    const p = await SipPeer.udp(h.target);
    peers.push(p);
    return p;
  }
  async function rtpPeer(): Promise<RtpPeer> {
    const p = await RtpPeer.open();
    peers.push(p);
    return p;
  }
  const uri = () => `sip:honeypot@127.0.0.1:${h.target.port}`;

  function invite(
    peer: SipPeer,
    ids: DialogIds,
    rtp: RtpPeer | number,
    headers: Record<string, string> = {},
    body?: string,
  ): void {
    const port = typeof rtp === 'number' ? rtp : rtp.port;
    peer.send(
      request({
        method: 'INVITE',
        uri: uri(),
        ids,
        peer,
        headers: { 'X-Service-Key': h.server.key, ...headers },
        body: body ?? offerSdp(port),
      }),
    );
  }
  function ack(peer: SipPeer, ids: DialogIds, toTag: string, branch = `z9hG4bKack${ids.fromTag}`): void {
    peer.send(request({ method: 'ACK', uri: uri(), ids: { ...ids, branch }, peer, toTag }));
  }
  function bye(peer: SipPeer, ids: DialogIds, toTag: string): void {
    peer.send(
      request({
        method: 'BYE',
        uri: uri(),
        ids: { ...ids, cseq: ids.cseq + 1, branch: `z9hG4bKbye${ids.fromTag}` },
        peer,
        toTag,
      }),
    );
  }
  const tagOf = (res: SipResponse) => /;tag=([^;\s]+)/.exec(res.headers.get('to') ?? '')![1]!;

  async function ended(callId: string) {
    let found: Awaited<ReturnType<typeof h.server.services.store.sessions.listByKey>>[number] | undefined;
    await until(
      async () => {
        const rows = await h.server.services.store.sessions.listByKey(keyId, 200);
        found = rows.find((r) => r.call_id === callId && r.state === 'ended');
        return found !== undefined;
      },
      30_000,
      `session ${callId} ended`,
    );
    return found!;
  }

  it('answers with a persona: greeting heard over RTP, keys in intel.dtmf, caller BYE ends and files the session', async () => {
    const peer = await udpPeer();
    const rtp = await rtpPeer();
    const ids = newIds();
    invite(peer, ids, rtp, { 'X-Webhook': `${h.receiver.url}/sip`, 'X-Report': 'false' });
    await peer.response(100, 'INVITE');
    await peer.response(180, 'INVITE');
    const ok = await peer.response(200, 'INVITE');
    expect(ok.headers.get('content-type')).to.equal('application/sdp');
    expect(ok.body.toString()).to.match(/m=audio \d+ RTP\/AVP 0 101\r\n/);
    expect(ok.headers.get('contact')).to.match(/^<sip:honeypot@127\.0\.0\.1:\d+>$/);
    const toTag = tagOf(ok);
    ack(peer, ids, toTag);
    const media = answerMedia(ok);
    rtp.to(media.host, media.port);

    // The persona greets: paced 20 ms packets of PCMU with a marker on the first of the talkspurt.
    const talking = setInterval(() => rtp.audio(), 20);
    try {
      await until(() => rtp.packets.length >= 50, 20_000, 'persona audio');
      const first = rtp.packets[0]!;
      expect(first.payloadType).to.equal(0);
      expect(first.marker).to.equal(true);
      for (let i = 1; i < 50; i++) {
        const p = rtp.packets[i]!;
        expect(p.payload.length).to.equal(160);
        expect(p.sequence).to.equal((first.sequence + i) & 0xffff);
        expect(p.ssrc).to.equal(first.ssrc);
      }
      // Timestamps advance by 160 within a talkspurt.
      expect(rtp.packets[1]!.timestamp - first.timestamp).to.equal(160);
      const level = mulawLevel(Buffer.concat(rtp.packets.slice(0, 50).map((p) => p.payload)));
      expect(level, 'greeting is not silence').to.be.greaterThan(200);
      // Paced in real time: 50 packets of 20 ms take about a second, not a burst.
      const span = rtp.arrivals[49]! - rtp.arrivals[0]!;
      expect(span).to.be.within(900, 1300);

      for (const k of ['4', '2', '#']) rtp.key(k);
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      clearInterval(talking);
    }
    bye(peer, ids, toTag);
    await peer.response(200, 'BYE');

    const rec = await ended(ids.callId);
    expect(rec).to.include({ kind: 'honeypot', protocol: 'sip', from: CALLER, call_id: ids.callId });
    expect(rec.intel.dtmf).to.equal('42#');
    expect(rec.persona_id).to.be.a('string');
    await until(() => h.receiver.posts.some((p) => p.body.type === 'session.ended'), 10_000, 'webhook session.ended');
    const types = h.receiver.posts.map((p) => p.body.type);
    expect(types).to.include('session.started');
    const started = h.receiver.posts.find((p) => p.body.type === 'session.started')!;
    expect(started.body).to.include({ call_id: ids.callId, kind: 'honeypot', from: CALLER });
    expect(started.body.persona).to.be.an('object');
    // Our side never sent a BYE of its own.
    expect(peer.count((m) => m.type === 'request' && m.method === 'BYE')).to.equal(0);
  });
  async function sessionCount(): Promise<number> {
    return (await h.server.services.store.sessions.listByKey(keyId, 200)).length;
  }

  it('refuses a missing or wrong X-Service-Key with 403 and a reason: no session, no charge', async () => {
    const peer = await udpPeer();
    const before = await sessionCount();
    const balance = await h.server.services.store.keys.balance(keyId);
    const missing = newIds();
    peer.send(request({ method: 'INVITE', uri: uri(), ids: missing, peer, body: offerSdp(40000) }));
    const r1 = await peer.finalResponse('INVITE');
    expect(r1.status).to.equal(403);
    expect(r1.reason).to.equal('Forbidden (X-Service-Key missing)');
    const wrong = newIds();
    invite(peer, wrong, 40000, { 'X-Service-Key': 'not-a-key-at-all' });
    const r2 = await peer.wait(
      (r) =>
        r.message.type === 'response' && r.message.status === 403 && r.message.headers.get('call-id') === wrong.callId,
    );
    expect((r2.message as SipResponse).reason).to.equal('Forbidden (wrong X-Service-Key)');
    expect(await sessionCount()).to.equal(before);
    expect(await h.server.services.store.keys.balance(keyId)).to.equal(balance);
  });

  it('answers 488 to an offer without G.711 and to an SRTP offer', async () => {
    const peer = await udpPeer();
    const noG711 = newIds();
    const g722 = [
      'v=0',
      'o=- 1 1 IN IP4 127.0.0.2',
      's=-',
      'c=IN IP4 127.0.0.2',
      't=0 0',
      'm=audio 4000 RTP/AVP 9',
      'a=rtpmap:9 G722/8000',
      '',
    ].join('\r\n');
    invite(peer, noG711, 4000, {}, g722);
    const r1 = await peer.finalResponse('INVITE');
    expect(r1.status).to.equal(488);
    expect(r1.reason).to.match(/G\.711/);
    const srtp = newIds();
    invite(peer, srtp, 4000, {}, offerSdp(4000).replace('RTP/AVP', 'RTP/SAVP'));
    const r2 = await peer.wait(
      (r) =>
        r.message.type === 'response' && r.message.status >= 200 && r.message.headers.get('call-id') === srtp.callId,
    );
    expect((r2.message as SipResponse).status).to.equal(488);
    expect((r2.message as SipResponse).reason).to.match(/SRTP/);
  });

  it('CANCEL before the answer: 200 to the CANCEL, 487 to the INVITE (resent until ACK), no session', async () => {
    const peer = await udpPeer();
    const before = await sessionCount();
    const ids = newIds();
    invite(peer, ids, 40002);
    peer.send(request({ method: 'CANCEL', uri: uri(), ids, peer }));
    const c = await peer.finalResponse('CANCEL');
    expect(c.status).to.equal(200);
    const r = await peer.finalResponse('INVITE');
    expect(r.status).to.equal(487);
    // Unacknowledged, the 487 goes out again (timer G), then stops once the ACK arrives.
    await until(() => peer.count((m) => m.type === 'response' && m.status === 487) >= 2, 3000, '487 retransmitted');
    ack(peer, ids, tagOf(r), ids.branch);
    await new Promise((res) => setTimeout(res, 150));
    const n = peer.count((m) => m.type === 'response' && m.status === 487);
    await new Promise((res) => setTimeout(res, 600));
    expect(peer.count((m) => m.type === 'response' && m.status === 487)).to.equal(n);
    expect(
      peer.count((m) => m.type === 'response' && m.status === 200 && m.headers.get('cseq')!.endsWith('INVITE')),
    ).to.equal(0);
    expect(await sessionCount()).to.equal(before);
  });

  it('a retransmitted INVITE is answered once; the 200 is resent until the ACK', async () => {
    const peer = await udpPeer();
    const rtp = await rtpPeer();
    const before = await sessionCount();
    const ids = newIds();
    invite(peer, ids, rtp);
    invite(peer, ids, rtp);
    const ok = await peer.response(200, 'INVITE');
    await until(() => peer.count((m) => m.type === 'response' && m.status === 200) >= 3, 3000, '200 resent');
    const oks = peer.received.filter((r) => r.message.type === 'response' && r.message.status === 200);
    expect(new Set(oks.map((r) => tagOf(r.message as SipResponse))).size).to.equal(1);
    ack(peer, ids, tagOf(ok));
    await new Promise((res) => setTimeout(res, 150));
    const n = peer.count((m) => m.type === 'response' && m.status === 200);
    await new Promise((res) => setTimeout(res, 600));
    expect(peer.count((m) => m.type === 'response' && m.status === 200)).to.equal(n);
    await until(async () => (await sessionCount()) === before + 1, 5000, 'one session');
    bye(peer, ids, tagOf(ok));
    expect((await peer.finalResponse('BYE')).status).to.equal(200);
    await ended(ids.callId);
    expect(await sessionCount()).to.equal(before + 1);
  });

  it('OPTIONS is answered 200 with Allow; an unknown method 501; REGISTER 405; a stray BYE 481; Require 420', async () => {
    const peer = await udpPeer();
    peer.send(request({ method: 'OPTIONS', uri: uri(), ids: newIds(), peer }));
    const o = await peer.finalResponse('OPTIONS');
    expect(o.status).to.equal(200);
    expect(o.headers.all('allow').join(', ')).to.equal('INVITE, ACK, CANCEL, BYE, OPTIONS');
    peer.send(request({ method: 'FROBNICATE', uri: uri(), ids: newIds(), peer }));
    expect((await peer.finalResponse('FROBNICATE')).status).to.equal(501);
    peer.send(request({ method: 'REGISTER', uri: uri(), ids: newIds(), peer }));
    const reg = await peer.finalResponse('REGISTER');
    expect(reg.status).to.equal(405);
    expect(reg.headers.all('allow')).to.include('INVITE');
    peer.send(request({ method: 'BYE', uri: uri(), ids: newIds(), peer, toTag: 'nope' }));
    expect((await peer.finalResponse('BYE')).status).to.equal(481);
    // No extension is supported; a request that requires one gets 420 naming it.
    const ext = newIds();
    invite(peer, ext, 40000, { Require: '100rel, timer' });
    const bad = await peer.wait(
      (r) =>
        r.message.type === 'response' && r.message.headers.get('call-id') === ext.callId && r.message.status >= 200,
    );
    expect((bad.message as SipResponse).status).to.equal(420);
    expect((bad.message as SipResponse).headers.all('unsupported')).to.deep.equal(['100rel', 'timer']);
  });

  it('takes a call over TCP: INVITE, 200, ACK and BYE on one connection', async () => {
    const peer = await SipPeer.tcp(h.target);
    peers.push(peer);
    const rtp = await rtpPeer();
    const ids = newIds();
    invite(peer, ids, rtp, { 'X-Report': 'false' });
    const ok = await peer.response(200, 'INVITE');
    expect(ok.headers.get('contact')).to.include(';transport=tcp');
    ack(peer, ids, tagOf(ok));
    rtp.to(answerMedia(ok).host, answerMedia(ok).port);
    await until(() => rtp.packets.length > 5, 20_000, 'persona audio over the TCP call');
    bye(peer, ids, tagOf(ok));
    expect((await peer.finalResponse('BYE')).status).to.equal(200);
    expect((await ended(ids.callId)).protocol).to.equal('sip');
  });
  it('survives garbage and answers a request missing a mandatory header with 400', async () => {
    const peer = await udpPeer();
    for (const junk of [
      '',
      '\r\n\r\n',
      'hello',
      'INVITE sip:x SIP/2.0\r\nno colon\r\n\r\n',
      Buffer.alloc(2000, 0xff).toString('latin1'),
    ]) {
      peer.send(junk);
    }
    const ids = newIds();
    const noCallId = request({ method: 'OPTIONS', uri: uri(), ids, peer }).replace(/^Call-ID: .*\r\n/m, '');
    peer.send(noCallId);
    const r = await peer.finalResponse('OPTIONS');
    expect(r.status).to.equal(400);
    expect(r.reason).to.match(/call-id/);
    // Still serving.
    peer.send(request({ method: 'OPTIONS', uri: uri(), ids: newIds(), peer }));
    await until(
      () => peer.count((m) => m.type === 'response' && m.status === 200) === 1,
      3000,
      'OPTIONS after garbage',
    );
  });

  it('a re-INVITE moves our RTP to the new address and is answered with the same codec', async () => {
    const peer = await udpPeer();
    const first = await rtpPeer();
    const second = await rtpPeer();
    const ids = newIds();
    invite(peer, ids, first, { 'X-Report': 'false' });
    const ok = await peer.response(200, 'INVITE');
    const tag = tagOf(ok);
    ack(peer, ids, tag);
    first.to(answerMedia(ok).host, answerMedia(ok).port);
    await until(() => first.packets.length > 3, 20_000, 'audio to the first port');
    const re = { ...ids, cseq: 2, branch: `z9hG4bKre${ids.fromTag}` };
    peer.send(
      request({ method: 'INVITE', uri: uri(), ids: re, peer, toTag: tag, body: offerSdp(second.port, '0 101') }),
    );
    const ok2 = await peer.wait(
      (r) => r.message.type === 'response' && r.message.status === 200 && r.message.headers.get('cseq') === '2 INVITE',
    );
    const body = (ok2.message as SipResponse).body.toString();
    expect(body).to.match(/m=audio \d+ RTP\/AVP 0 101/);
    expect(body).to.match(/^o=- \d+ 2 IN IP4/m);
    ack(peer, re, tag, `z9hG4bKack2${ids.fromTag}`);
    // Switching codec mid-call is refused.
    const re3 = { ...ids, cseq: 3, branch: `z9hG4bKre3${ids.fromTag}` };
    peer.send(request({ method: 'INVITE', uri: uri(), ids: re3, peer, toTag: tag, body: offerSdp(second.port, '8') }));
    const no = await peer.wait(
      (r) => r.message.type === 'response' && r.message.status >= 400 && r.message.headers.get('cseq') === '3 INVITE',
    );
    expect((no.message as SipResponse).status).to.equal(488);
    const talk = setInterval(() => first.audio(), 20);
    try {
      await until(() => second.packets.length > 3, 20_000, 'audio to the second port');
    } finally {
      clearInterval(talk);
    }
    bye(peer, { ...ids, cseq: 4 }, tag);
    expect((await peer.finalResponse('BYE')).status).to.equal(200);
    await ended(ids.callId);
  });
});
