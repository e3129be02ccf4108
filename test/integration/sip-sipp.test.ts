import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { hashKey } from '../../src/server/auth.js';
import { SipServer } from '../../src/server/sip/uas.js';
import { startSipHarness, until, type SipHarness } from '../fixtures/sipp/harness.js';
import { mulawLevel, RtpPeer } from '../fixtures/sipp/peer.js';
import { freeMediaPort, runSipp, sippAvailable } from '../fixtures/sipp/run-sipp.js';

/** SIPp, a real SIP user agent, calls the honeypot. */
describe('sip honeypot with SIPp as the caller', function () {
  this.timeout(90_000);
  let h: SipHarness;
  let keyId: string;
  const closers: Array<{ close(): unknown }> = [];

  before(async function () {
    if (!sippAvailable()) {
      // CI installs sip-tester; a machine without it cannot run these.
      this.skip();
    }
    h = await startSipHarness();
    keyId = (await h.server.services.store.keys.findByHash(hashKey(h.server.key)))!.id;
  });
  after(async () => {
    for (const c of closers) await c.close();
    await h?.close();
  });

  it('PCMU call: the persona greets over RTP, keys reach intel.dtmf, the caller’s BYE ends and stores the session', async () => {
    // The offer names this socket for the honeypot's audio; SIPp streams the caller's audio itself.
    const sink = await RtpPeer.open();
    closers.push(sink);
    const sipp = runSipp({
      scenario: 'uac-pcmu-call.xml',
      target: h.target,
      mediaPort: await freeMediaPort(),
      pauseMs: 9000,
      keys: { service_key: h.server.key, webhook: `${h.receiver.url}/sipp`, rtp_sink: String(sink.port) },
    });

    await until(() => sink.packets.length >= 40, 30_000, 'persona audio at the caller');
    const level = mulawLevel(Buffer.concat(sink.packets.slice(0, 40).map((p) => p.payload)));
    expect(level, 'the greeting is audible').to.be.greaterThan(200);
    // Keys go to the port the persona's audio comes from (symmetric RTP).
    sink.to('127.0.0.1', sink.sources[0]!.port);
    for (const k of ['7', '3', '*']) sink.key(k);

    const result = await sipp;
    expect(result.code, `${result.stdout.slice(-2000)}\n${result.errors}`).to.equal(0);
    // SIPp's own audio reached the honeypot as the caller's RTP.
    const callId = /Call-ID: (\S+)/.exec(result.messages)?.[1];
    expect(callId).to.be.a('string');
    await until(
      async () => {
        const rows = await h.server.services.store.sessions.listByKey(keyId, 50);
        return rows.some((r) => r.call_id === callId && r.state === 'ended');
      },
      30_000,
      'session stored',
    );
    const rec = (await h.server.services.store.sessions.listByKey(keyId, 50)).find((r) => r.call_id === callId)!;
    expect(rec).to.include({ kind: 'honeypot', protocol: 'sip', from: '+12025550123' });
    expect(rec.intel.dtmf).to.equal('73*');
    const ended = h.server.logs.find((l) => l.msg === 'call ended' && l.callId === callId)!;
    expect(ended.why).to.equal('caller_bye');
    // SIPp streamed its PCMU file for the length of the call: hundreds of packets, not just our keys.
    expect(ended.rtpIn as number).to.be.greaterThan(100);
    await until(
      () => h.receiver.posts.some((p) => p.body.type === 'session.ended' && p.body.call_id === callId),
      10_000,
      'webhook',
    );
  });
  /** A second entry point on the same node whose RTP watchdog fires after 1.5 s. */
  async function impatientServer(): Promise<SipServer> {
    const s = new SipServer(h.server.services, h.supervisor, {
      host: '127.0.0.1',
      port: 0,
      rtpPorts: { min: 0, max: 0 },
      rtpTimeoutMs: 1500,
    });
    await s.listen();
    closers.push(s);
    return s;
  }

  it('PCMA preferred, over TCP: the honeypot answers PCMA and hangs up with BYE when the caller’s RTP never comes', async () => {
    const s = await impatientServer();
    const sink = await RtpPeer.open();
    closers.push(sink);
    const result = await runSipp({
      scenario: 'uac-honeypot-hangs-up.xml',
      target: { host: '127.0.0.1', port: s.port },
      transport: 't1',
      mediaPort: await freeMediaPort(),
      keys: {
        ruri: `sip:honeypot@127.0.0.1:${s.port}`,
        caller: '+442079460958',
        service_key: h.server.key,
        rtp_sink: String(sink.port),
        formats: '8 0',
      },
    });
    expect(result.code, `${result.stdout.slice(-2000)}\n${result.errors}`).to.equal(0);
    expect(result.messages).to.match(/m=audio \d+ RTP\/AVP 8 101/);
    expect(result.messages).to.match(/BYE sip:caller@127\.0\.0\.2:\d+;transport=TCP SIP\/2\.0/i);
    // Whatever the persona said before the hang-up came as PCMA.
    for (const p of sink.packets) expect(p.payloadType).to.equal(8);
    const callId = /Call-ID: (\S+)/.exec(result.messages)![1]!;
    await until(
      async () => {
        const rows = await h.server.services.store.sessions.listByKey(keyId, 50);
        return rows.some((r) => r.call_id === callId && r.state === 'ended' && r.from === '+442079460958');
      },
      30_000,
      'session stored',
    );
  });

  describe('firewall domains', () => {
    const SCAMMER = '+12025550177';
    before(async () => {
      await h.server.services.store.complaints.file({
        id: randomUUID(),
        number: SCAMMER,
        session_id: randomUUID(),
        key_id: keyId,
        subject: 'Computer & Technical Support',
        comment: 'filed by a test',
        filed_at: new Date().toISOString(),
      });
      for (const [id, spam_action] of [
        ['block.example', 'decline'],
        ['lure.example', 'honeypot'],
      ] as const) {
        const r = await fetch(`${h.server.url}/domains/${id}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', 'x-auth': h.server.key },
          body: JSON.stringify({ spam_action, forward_uri: 'sip:office@10.9.8.7' }),
        });
        expect(r.status).to.equal(200);
      }
    });

    it('declines a filed caller with 603 under spam_action decline', async () => {
      const result = await runSipp({
        scenario: 'uac-declined.xml',
        target: h.target,
        mediaPort: await freeMediaPort(),
        keys: { domain: 'block.example', caller: SCAMMER },
      });
      expect(result.code, `${result.stdout.slice(-2000)}\n${result.errors}`).to.equal(0);
      expect(result.messages).to.match(/SIP\/2\.0 603 Decline/);
    });

    it('hands the same caller to a persona under spam_action honeypot', async () => {
      const s = await impatientServer();
      const sink = await RtpPeer.open();
      closers.push(sink);
      const result = await runSipp({
        scenario: 'uac-honeypot-hangs-up.xml',
        target: { host: '127.0.0.1', port: s.port },
        mediaPort: await freeMediaPort(),
        keys: {
          ruri: 'sip:+18005550100@lure.example',
          caller: SCAMMER,
          service_key: 'none',
          rtp_sink: String(sink.port),
          formats: '0 8',
        },
      });
      expect(result.code, `${result.stdout.slice(-2000)}\n${result.errors}`).to.equal(0);
      expect(result.messages).to.match(/SIP\/2\.0 200 OK/);
      const callId = /Call-ID: (\S+)/.exec(result.messages)![1]!;
      await until(
        async () => {
          const rows = await h.server.services.store.sessions.listByKey(keyId, 50);
          return rows.some(
            (r) => r.call_id === callId && r.state === 'ended' && r.kind === 'honeypot' && r.from === SCAMMER,
          );
        },
        30_000,
        'domain session stored',
      );
    });
  });
});
