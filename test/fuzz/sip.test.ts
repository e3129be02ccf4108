import { expect } from 'chai';
import dgram from 'node:dgram';
import net from 'node:net';
import {
  alive,
  freePort,
  spawnNode,
  storedSessions,
  tempDataDir,
  testKey,
  waitNoLiveSessions,
  type NodeProcess,
} from '../reliability/helpers/node-process.js';
import type { SipMessage, SipResponse } from '../../src/transport/sip/message.js';
import { newIds, offerSdp, request, SipPeer, type DialogIds } from '../fixtures/sipp/peer.js';
import { fuzzOffer } from '../fixtures/sipp/sdp-fuzz.js';
import { FUZZ_SEED, NASTY_STRINGS, Rng, fuzzCases } from './gen.js';

/** The final response to this request (Call-ID and CSeq). */
function isFinal(m: SipMessage, ids: DialogIds): boolean {
  return (
    m.type === 'response' &&
    m.status >= 200 &&
    m.headers.get('call-id') === ids.callId &&
    m.headers.get('cseq')?.split(/\s+/)[0] === String(ids.cseq)
  );
}

function toTag(res: SipResponse): string {
  return /;tag=([^;\s]+)/.exec(res.headers.get('to') ?? '')?.[1] ?? '';
}

/**
 * Generated SIP messages, truncated, huge or malformed, over UDP and TCP to the honeypot entry of a node
 * in its own process, then generated SDP offers (ports, addresses, codecs, missing lines) in INVITEs and in
 * re-INVITEs on live calls. Whatever arrives, the node keeps serving: every INVITE gets a final answer,
 * none that names media it must not send to is answered 2xx, and afterwards it answers HTTP, answers a plain
 * OPTIONS over UDP and TCP, holds no live session and leaves nothing open in the store.
 */
describe('fuzz: SIP entry (separate node process)', function () {
  this.timeout(120_000);
  const CASES = fuzzCases(600);
  const key = testKey();
  let node: NodeProcess;
  let udpAnswers = 0;

  before(async () => {
    node = await spawnNode({
      dataDir: tempDataDir(),
      sipPort: await freePort(),
      // Speech on, so that answered calls send RTP to whatever their offers named.
      env: { VOICE_BOOTSTRAP_KEYS: `${key}:1000000`, VOICE_TTS: 'espeak' },
    });
  });
  after(async () => {
    if (node && !(await alive(node))) console.log(`node died:\n${node.stderr().slice(-3000)}`);
    await node?.kill();
    if (process.env.FUZZ_REPORT)
      console.log(
        `    SIP fuzz, seed ${FUZZ_SEED}: ${CASES} UDP + ${CASES >> 2} TCP messages, ${udpAnswers} UDP answers`,
      );
  });

  function message(
    rng: Rng,
    method = rng.pick(['INVITE', 'OPTIONS', 'BYE', 'CANCEL', 'ACK', 'REGISTER', 'FOO']),
  ): string {
    const branch = `z9hG4bK${rng.int(0, 1e9)}`;
    const sdp = rng.chance(0.5)
      ? 'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio 4000 RTP/AVP 0 101\r\na=rtpmap:0 PCMU/8000\r\n'
      : rng.pick([
          'v=0\r\nm=audio abc RTP/AVP\r\n',
          'garbage',
          '',
          'm=audio 99999999 RTP/AVP 0\r\nc=IN IP4 999.1.1.1\r\n',
        ]);
    const headers = [
      `Via: SIP/2.0/UDP 127.0.0.1:5999;branch=${branch};rport`,
      'Max-Forwards: 70',
      `From: <sip:+12025550123@127.0.0.1>;tag=${rng.int(0, 1e9)}`,
      'To: <sip:honeypot@127.0.0.1>',
      `Call-ID: fz-${rng.int(0, 1e9)}@127.0.0.1`,
      `CSeq: ${rng.int(1, 1000)} ${method}`,
      'Contact: <sip:fz@127.0.0.1:5999>',
      `X-Service-Key: ${rng.chance(0.5) ? 'wrong-key' : rng.pick(NASTY_STRINGS)}`,
      `X-Persona: ${rng.pick(NASTY_STRINGS)}`,
      `X-Webhook: ${rng.pick(NASTY_STRINGS)}`,
      'Content-Type: application/sdp',
    ];
    const mutate = rng.int(0, 9);
    if (mutate === 0) headers.splice(rng.int(0, headers.length - 1), 1); // a required header missing
    if (mutate === 1) headers.push(`X-Huge: ${'a'.repeat(rng.int(1000, 60_000))}`);
    if (mutate === 2) headers[5] = `CSeq: ${rng.pick(NASTY_STRINGS)}`;
    if (mutate === 3) headers[0] = `Via: ${rng.pick(NASTY_STRINGS)}`;
    if (mutate === 4)
      for (let i = 0; i < rng.int(50, 400); i++) headers.push(`Via: SIP/2.0/UDP 10.0.0.${i}:5060;branch=z9hG4bK${i}`);
    const lie = mutate === 5 ? rng.int(0, 100_000) : Buffer.byteLength(sdp);
    const uri = mutate === 6 ? rng.pick(NASTY_STRINGS) : 'sip:honeypot@127.0.0.1';
    const start =
      mutate === 7
        ? rng.pick([`${method} ${uri}`, `${method} ${uri} SIP/3.0`, 'SIP/2.0 200', `\u0000${method}`])
        : `${method} ${uri} SIP/2.0`;
    return `${start}\r\n${headers.join('\r\n')}\r\nContent-Length: ${lie}\r\n\r\n${sdp}`;
  }

  function datagram(rng: Rng): Buffer {
    const shape = rng.int(0, 5);
    if (shape === 0) return rng.bytes(rng.int(0, 1500));
    const m = Buffer.from(message(rng));
    if (shape === 1) return m.subarray(0, rng.int(0, m.length)); // truncated
    if (shape === 2) return Buffer.concat([m, rng.bytes(rng.int(1, 500))]);
    return m.length > 65_000 ? m.subarray(0, 65_000) : m;
  }

  it(`${CASES} generated UDP datagrams`, async () => {
    const rng = new Rng(FUZZ_SEED ^ 0x5151);
    const sock = dgram.createSocket('udp4');
    sock.on('message', () => udpAnswers++);
    await new Promise<void>((r) => sock.bind(0, '127.0.0.1', () => r()));
    for (let i = 0; i < CASES; i++) {
      await new Promise<void>((resolve) => sock.send(datagram(rng), node.sipPort, '127.0.0.1', () => resolve()));
      if (i % 50 === 49) await new Promise((r) => setTimeout(r, 20)); // let the node keep up
    }
    await new Promise((r) => setTimeout(r, 500));
    sock.close();
    expect(await alive(node)).to.equal(true);
  });

  it(`${CASES >> 2} generated TCP streams (truncated, huge, split at random)`, async () => {
    const rng = new Rng(FUZZ_SEED ^ 0x7c9);
    for (let i = 0; i < CASES >> 2; i += 5) {
      await Promise.all(
        Array.from({ length: 5 }, async () => {
          const s = net.connect(node.sipPort, '127.0.0.1');
          s.on('error', () => undefined);
          s.on('data', () => undefined);
          await new Promise<void>((r) => s.once('connect', () => r()));
          let bytes = Buffer.from(message(rng));
          if (rng.chance(0.3)) bytes = bytes.subarray(0, rng.int(0, bytes.length));
          if (rng.chance(0.1)) bytes = Buffer.concat([bytes, rng.bytes(rng.int(70_000, 300_000))]);
          // Split at random points, as a stream may deliver it.
          for (let at = 0; at < bytes.length;) {
            const n = rng.int(1, 4000);
            s.write(bytes.subarray(at, at + n));
            at += n;
          }
          await new Promise((r) => setTimeout(r, rng.int(0, 50)));
          s.destroy();
        }),
      );
    }
    expect(await alive(node)).to.equal(true);
  });

  it(`${CASES >> 2} generated SDP offers and ${CASES >> 3} re-INVITEs on live calls: a final answer each, no hostile one taken`, async () => {
    const rng = new Rng(FUZZ_SEED ^ 0x5d9);
    const peer = await SipPeer.udp({ host: '127.0.0.1', port: node.sipPort });
    const uri = `sip:honeypot@127.0.0.1:${node.sipPort}`;
    const headers = { 'X-Service-Key': key, 'X-Report': 'false' };
    const final = async (ids: DialogIds, what: string): Promise<SipResponse> => {
      const res = await peer
        .wait((r) => isFinal(r.message, ids), 10_000)
        .catch(async () => expect.fail(`no final answer to ${what}; node alive: ${await alive(node)}`));
      return res.message as SipResponse;
    };
    const ack = (ids: DialogIds, res: SipResponse) => {
      const tag = toTag(res);
      // A 2xx's ACK is its own transaction; a failure's takes the INVITE's branch (RFC 3261 §17.1.1.3).
      const branch = res.status < 300 ? `${ids.branch}a` : ids.branch;
      peer.send(request({ method: 'ACK', uri, ids: { ...ids, branch }, peer, toTag: tag }));
    };
    const bye = async (ids: DialogIds, tag: string) => {
      const b = { ...ids, cseq: ids.cseq + 1000, branch: `${ids.branch}b` };
      peer.send(request({ method: 'BYE', uri, ids: b, peer, toTag: tag }));
      expect((await final(b, 'BYE')).status).to.equal(200);
    };

    // Live calls whose persona is speaking while their re-INVITEs arrive.
    const live: Array<{ ids: DialogIds; tag: string }> = [];
    for (let i = 0; i < 3; i++) {
      const ids = newIds();
      peer.send(request({ method: 'INVITE', uri, ids, peer, headers, body: offerSdp(2 * rng.int(20000, 30000)) }));
      const ok = await final(ids, 'a proper INVITE');
      expect(ok.status).to.equal(200);
      ack(ids, ok);
      live.push({ ids, tag: toTag(ok) });
    }

    let taken = 0;
    for (let i = 0; i < CASES >> 2; i++) {
      const offer = fuzzOffer(rng);
      const ids = newIds();
      peer.send(request({ method: 'INVITE', uri, ids, peer, headers, body: offer.body }));
      const res = await final(ids, `INVITE #${i} (${offer.label})`);
      ack(ids, res);
      if (res.status < 300) {
        expect(offer.hostile, `2xx for a hostile offer: ${offer.label}`).to.equal(false);
        taken++;
        await bye(ids, toTag(res));
      } else expect(res.status, offer.label).to.be.oneOf([400, 488]);
    }
    let cseq = 2;
    for (let i = 0; i < CASES >> 3; i++) {
      const call = live[i % live.length]!;
      const offer = fuzzOffer(rng);
      const ids = { ...call.ids, cseq: cseq++, branch: `z9hG4bKre${i}x${rng.int(0, 1e9)}` };
      peer.send(request({ method: 'INVITE', uri, ids, peer, toTag: call.tag, body: offer.body }));
      const res = await final(ids, `re-INVITE #${i} (${offer.label})`);
      ack(ids, res);
      if (res.status < 300)
        expect(offer.hostile && !offer.holdOnly, `2xx for a hostile re-INVITE: ${offer.label}`).to.equal(false);
      else expect(res.status, offer.label).to.be.oneOf([400, 488]);
    }
    // Every live call outlived its re-INVITEs: its BYE finds the dialog (200, not 481).
    for (const call of live) await bye({ ...call.ids, cseq: cseq++ }, call.tag);
    peer.close();
    expect(await alive(node)).to.equal(true);
    expect(node.stderr()).to.not.match(/RangeError|ERR_SOCKET/);
    if (process.env.FUZZ_REPORT) console.log(`    SDP fuzz: ${taken} of ${CASES >> 2} fuzzed offers answered 2xx`);
  });

  it('still answers a plain OPTIONS over UDP and TCP, holds no live session and leaves nothing open', async () => {
    const options = (via: string) =>
      `OPTIONS sip:honeypot@127.0.0.1 SIP/2.0\r\nVia: SIP/2.0/${via} 127.0.0.1:5999;branch=z9hG4bKprobe${via}\r\nMax-Forwards: 70\r\nFrom: <sip:probe@127.0.0.1>;tag=1\r\nTo: <sip:honeypot@127.0.0.1>\r\nCall-ID: probe-${via}@127.0.0.1\r\nCSeq: 1 OPTIONS\r\nContent-Length: 0\r\n\r\n`;
    const sock = dgram.createSocket('udp4');
    await new Promise<void>((r) => sock.bind(0, '127.0.0.1', () => r()));
    const udp = new Promise<string>((resolve) => sock.once('message', (m) => resolve(m.toString())));
    sock.send(options('UDP'), node.sipPort, '127.0.0.1');
    expect(await udp).to.match(/^SIP\/2\.0 200/);
    sock.close();
    const s = net.connect(node.sipPort, '127.0.0.1');
    const tcp = new Promise<string>((resolve) => s.once('data', (d) => resolve(d.toString())));
    s.write(options('TCP'));
    expect(await tcp).to.match(/^SIP\/2\.0 200/);
    s.destroy();
    expect(await waitNoLiveSessions(node)).to.equal(0);
    for (const row of await storedSessions(node.dataDir)) expect(row.state).to.equal('ended');
  });

  it('never logs a presented X-Service-Key, nor its own key', () => {
    expect(node.stdout()).to.not.include('wrong-key');
    expect(node.stdout()).to.not.include(key);
  });
});
