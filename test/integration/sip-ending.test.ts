import { expect } from 'chai';
import net from 'node:net';
import { hashKey } from '../../src/server/auth.js';
import { Supervisor } from '../../src/session/supervisor.js';
import {
  responseTo,
  serialize,
  StreamFramer,
  type SipRequest,
  type SipResponse,
} from '../../src/transport/sip/message.js';
import { SipServer, type SipServerOptions } from '../../src/server/sip/uas.js';
import { createHoneypotPipeline } from '../../pipelines/honeypot/pipeline.js';
import { RequestLimits } from '../../src/server/rate-limit.js';
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

/** Refusals before a session exists, and the honeypot ending calls with its own BYE. */
describe('sip honeypot: refusals and calls the honeypot ends', function () {
  this.timeout(60_000);
  let h: SipHarness;
  let keyId: string;
  const closers: Array<{ close(): unknown }> = [];

  before(async () => {
    h = await startSipHarness();
    keyId = (await h.server.services.store.keys.findByHash(hashKey(h.server.key)))!.id;
  });
  after(async () => {
    for (const c of closers.reverse()) await c.close();
    await h.close();
  });

  async function server(over: Partial<SipServerOptions> = {}, supervisor = h.supervisor, services = h.server.services) {
    const s = new SipServer(services, supervisor, {
      host: '127.0.0.1',
      port: 0,
      rtpPorts: { min: 0, max: 0 },
      rtpTimeoutMs: 10_000,
      timers: { t1: 100, t2: 400, t4: 500 },
      ...over,
    });
    await s.listen();
    closers.push(s);
    return s;
  }
  async function peerFor(s: SipServer): Promise<SipPeer> {
    const p = await SipPeer.udp({ host: '127.0.0.1', port: s.port });
    closers.push(p);
    return p;
  }
  function invite(peer: SipPeer, s: SipServer, ids: DialogIds, rtpPort: number, key = h.server.key): void {
    peer.send(
      request({
        method: 'INVITE',
        uri: `sip:honeypot@127.0.0.1:${s.port}`,
        ids,
        peer,
        headers: { 'X-Service-Key': key, 'X-Report': 'false' },
        body: offerSdp(rtpPort),
      }),
    );
  }
  const tagOf = (res: SipResponse) => /;tag=([^;\s]+)/.exec(res.headers.get('to') ?? '')![1]!;
  function answerBye(peer: SipPeer, ms = 8000): Promise<SipRequest> {
    return peer
      .wait((r) => r.message.type === 'request' && r.message.method === 'BYE', ms)
      .then((r) => {
        const bye = r.message as SipRequest;
        peer.send(serialize(responseTo(bye, 200)).toString());
        return bye;
      });
  }
  async function ended(callId: string) {
    await until(
      async () => {
        const rows = await h.server.services.store.sessions.listByKey(keyId, 200);
        return rows.some((r) => r.call_id === callId && r.state === 'ended');
      },
      30_000,
      `session ${callId} ended`,
    );
  }

  it('503 when the node is full, 503 when the honeypot is off, 402 when the key cannot pay the first minute', async () => {
    const full = await server({}, new Supervisor(h.server.services, { capacity: 0 }));
    const p1 = await peerFor(full);
    invite(p1, full, newIds(), 4000);
    const r1 = await p1.finalResponse('INVITE');
    expect(r1.status).to.equal(503);
    expect(r1.reason).to.match(/limit/);

    const config = { ...h.server.services.config, features: new Set(['scan', 'live_filter'] as const) };
    const off = await server({}, h.supervisor, { ...h.server.services, config });
    const p2 = await peerFor(off);
    invite(p2, off, newIds(), 4000);
    const r2 = await p2.finalResponse('INVITE');
    expect(r2.status).to.equal(503);
    expect(r2.reason).to.match(/honeypot is off/);

    const poor = 'poor_key_0123456789';
    await h.server.services.store.keys.create({
      id: 'poor-key',
      hash: hashKey(poor),
      label: 'poor',
      credits: 3,
      created_at: new Date().toISOString(),
    });
    const s = await server();
    const p3 = await peerFor(s);
    invite(p3, s, newIds(), 4000, poor);
    const r3 = await p3.finalResponse('INVITE');
    expect(r3.status).to.equal(402);
    expect(r3.reason).to.match(/^Payment Required/);
    expect(await h.server.services.store.keys.balance('poor-key')).to.equal(3);
    expect(await h.server.services.store.sessions.listByKey('poor-key', 10)).to.have.length(0);
  });

  it('no RTP from the caller for the configured time: the honeypot hangs up with BYE and files the session', async () => {
    const s = await server({ rtpTimeoutMs: 800 });
    const peer = await peerFor(s);
    const ids = newIds();
    invite(peer, s, ids, 40010);
    const ok = await peer.response(200, 'INVITE');
    peer.send(
      request({
        method: 'ACK',
        uri: `sip:honeypot@127.0.0.1:${s.port}`,
        ids: { ...ids, branch: 'z9hG4bKack1' },
        peer,
        toTag: tagOf(ok),
      }),
    );
    const t0 = Date.now();
    const bye = await answerBye(peer);
    expect(Date.now() - t0).to.be.within(500, 3000);
    expect(bye.uri).to.equal(`sip:caller@127.0.0.2:${peer.port}`);
    expect(bye.headers.get('call-id')).to.equal(ids.callId);
    expect(bye.headers.get('from')).to.include(`tag=${tagOf(ok)}`);
    expect(bye.headers.get('to')).to.include(`tag=${ids.fromTag}`);
    await ended(ids.callId);
    await until(() => s.activeCalls === 0, 2000, 'call released');
  });

  it('a session that ends on its own (node shutdown here) ends the call with BYE, resent until answered', async () => {
    const supervisor = new Supervisor(h.server.services, {});
    const s = await server({}, supervisor);
    const peer = await peerFor(s);
    const rtp = await RtpPeer.open();
    closers.push(rtp);
    const ids = newIds();
    invite(peer, s, ids, rtp.port);
    const ok = await peer.response(200, 'INVITE');
    peer.send(
      request({
        method: 'ACK',
        uri: `sip:honeypot@127.0.0.1:${s.port}`,
        ids: { ...ids, branch: 'z9hG4bKack2' },
        peer,
        toTag: tagOf(ok),
      }),
    );
    rtp.to(answerMedia(ok).host, answerMedia(ok).port);
    rtp.audio();
    const draining = supervisor.drain(10_000);
    // The first BYE goes unanswered; timer E sends it again.
    await until(() => peer.count((m) => m.type === 'request' && m.method === 'BYE') >= 2, 5000, 'BYE resent');
    const bye = peer.received.find((r) => r.message.type === 'request' && r.message.method === 'BYE')!
      .message as SipRequest;
    peer.send(serialize(responseTo(bye, 200)).toString());
    await draining;
    const byes = peer.count((m) => m.type === 'request' && m.method === 'BYE');
    await new Promise((r) => setTimeout(r, 900));
    expect(
      peer.count((m) => m.type === 'request' && m.method === 'BYE'),
      'answered BYE is not resent',
    ).to.equal(byes);
    await ended(ids.callId);
  });
  it('the persona hangs up (caller silent after the greeting): its last words play out, then BYE', async () => {
    // The real honeypot pipeline with a short silence clock and no prompt before the goodbye.
    const patient = new Supervisor(h.server.services, {
      pipelines: { honeypot: createHoneypotPipeline({ timing: { silenceMs: 200, maxPrompts: 0, replyPauseMs: 500 } }) },
    });
    const s = await server({}, patient);
    const peer = await peerFor(s);
    const rtp = await RtpPeer.open();
    closers.push(rtp);
    const ids = newIds();
    invite(peer, s, ids, rtp.port);
    const ok = await peer.response(200, 'INVITE');
    peer.send(
      request({
        method: 'ACK',
        uri: `sip:honeypot@127.0.0.1:${s.port}`,
        ids: { ...ids, branch: 'z9hG4bKack3' },
        peer,
        toTag: tagOf(ok),
      }),
    );
    rtp.to(answerMedia(ok).host, answerMedia(ok).port);
    // Silence, not absence: keep RTP flowing so only the persona can end the call.
    const line = setInterval(() => rtp.audio(), 20);
    try {
      const bye = await answerBye(peer, 45_000);
      expect(bye.headers.get('call-id')).to.equal(ids.callId);
      // Everything queued was sent before the BYE: nothing arrives after it.
      const n = rtp.packets.length;
      await new Promise((r) => setTimeout(r, 200));
      expect(rtp.packets.length).to.equal(n);
    } finally {
      clearInterval(line);
    }
    await ended(ids.callId);
    const log = h.server.logs.find((l) => l.msg === 'call ended' && l.callId === ids.callId)!;
    expect(log.why).to.equal('persona_hangup');
  });
  it('takes out-of-dialog requests from the node’s per-address budget: 503 with Retry-After beyond it', async () => {
    const s = await server({ limits: new RequestLimits(3) });
    const peer = await peerFor(s);
    for (let i = 0; i < 5; i++) {
      peer.send(request({ method: 'OPTIONS', uri: `sip:honeypot@127.0.0.1:${s.port}`, ids: newIds(), peer }));
    }
    await until(() => peer.count((m) => m.type === 'response') >= 5, 3000, 'five answers');
    const statuses = peer.received.map((r) => (r.message as SipResponse).status).sort();
    expect(statuses).to.deep.equal([200, 200, 200, 503, 503]);
    const limited = peer.received.find((r) => (r.message as SipResponse).status === 503)!.message;
    expect(Number(limited.headers.get('retry-after'))).to.be.greaterThan(0);
  });
  it('over TCP, when the caller’s connection is gone, the BYE opens a new one to its Contact', async () => {
    const s = await server({ rtpTimeoutMs: 800 });
    const byes: SipRequest[] = [];
    const listener = net.createServer((sock) => {
      const framer = new StreamFramer();
      sock.on('data', (d: Buffer) => {
        for (const m of framer.push(d)) {
          if (m.type === 'request' && m.method === 'BYE') {
            byes.push(m);
            sock.write(serialize(responseTo(m, 200)));
          }
        }
      });
    });
    await new Promise<void>((r) => listener.listen(0, PEER_HOST, () => r()));
    closers.push(listener);
    const contactPort = (listener.address() as net.AddressInfo).port;
    const peer = await SipPeer.tcp({ host: '127.0.0.1', port: s.port });
    const ids = newIds();
    const contact = `sip:caller@${PEER_HOST}:${contactPort};transport=tcp`;
    peer.send(
      request({
        method: 'INVITE',
        uri: `sip:honeypot@127.0.0.1:${s.port}`,
        ids,
        peer,
        contact,
        headers: { 'X-Service-Key': h.server.key, 'X-Report': 'false' },
        body: offerSdp(40030),
      }),
    );
    const ok = await peer.response(200, 'INVITE');
    peer.send(request({ method: 'ACK', uri: contact, ids: { ...ids, branch: 'z9hG4bKack5' }, peer, toTag: tagOf(ok) }));
    await new Promise((r) => setTimeout(r, 100));
    peer.close();
    await until(() => byes.length > 0, 5000, 'BYE on a new connection');
    expect(byes[0]!.uri).to.equal(contact);
    expect(byes[0]!.headers.get('via')).to.match(/^SIP\/2\.0\/TCP /);
    await ended(ids.callId);
  });
});
