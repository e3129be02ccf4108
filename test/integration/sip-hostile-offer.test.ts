import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createEmbeddedStore } from '../../src/store/index.js';
import type { SipResponse } from '../../src/transport/sip/message.js';
import { until } from '../fixtures/sipp/harness.js';
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
import { freeMediaPort, runSipp, sippAvailable } from '../fixtures/sipp/run-sipp.js';
import { openLive, send, transcript, waitFor, type LiveRun } from './helpers/live-client.js';
import {
  alive,
  freePort,
  spawnNode,
  storedSessions,
  tempDataDir,
  testKey,
  type NodeProcess,
} from '../reliability/helpers/node-process.js';

const SCAMMER = '+12025550199';

/**
 * An SDP offer naming a port or address the node must not send to (port 70000, broadcast, multicast,
 * a name) is refused with 488 before anything is answered, on the keyed entry, on the keyless firewall
 * path and in a re-INVITE on a live call. The node runs in its own process, as deployed: an error that
 * escapes a call would end it, and with it the other calls, which must keep being served.
 */
describe('sip: hostile SDP offers (separate node process)', function () {
  this.timeout(120_000);
  const key = testKey();
  let node: NodeProcess;
  let other: LiveRun;
  let lines = 0;
  const closers: Array<{ close(): unknown }> = [];
  let target: { host: string; port: number };
  // The live SIP call that must outlive every attack.
  let live: { peer: SipPeer; rtp: RtpPeer; ids: DialogIds; tag: string };

  before(async () => {
    const dataDir = tempDataDir();
    // The caller is already filed, so the firewall domain hands it to a persona without a key.
    const store = createEmbeddedStore(path.join(dataDir, 'voice.db'));
    await store.complaints.file({
      id: randomUUID(),
      number: SCAMMER,
      session_id: randomUUID(),
      key_id: 'seed',
      subject: 'Tax Collection',
      comment: 'filed by a test',
      filed_at: new Date().toISOString(),
    });
    await store.close();
    node = await spawnNode({
      dataDir,
      sipPort: await freePort(),
      env: { VOICE_BOOTSTRAP_KEYS: `${key}:1000000`, VOICE_TTS: 'espeak', VOICE_SIP_RTP_TIMEOUT: '120' },
    });
    target = { host: '127.0.0.1', port: node.sipPort };
    const put = await fetch(`${node.url}/domains/trap.example`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-auth': key },
      body: JSON.stringify({ spam_action: 'honeypot' }),
    });
    expect(put.status).to.equal(200);

    other = await openLive(`${node.wsUrl}/voice/filter/stream?key=${key}`);
    send(other, { type: 'start', call_id: 'bystander', from: '+12025550150' });
    await waitFor(other, 'session.started');

    const peer = await SipPeer.udp(target);
    const rtp = await RtpPeer.open();
    closers.push(peer, rtp);
    const ids = newIds();
    peer.send(request({ method: 'INVITE', uri: uri(), ids, peer, headers: keyed(), body: offerSdp(rtp.port) }));
    const ok = await peer.response(200, 'INVITE', 20_000);
    const tag = /;tag=([^;\s]+)/.exec(ok.headers.get('to')!)![1]!;
    peer.send(request({ method: 'ACK', uri: uri(), ids: { ...ids, branch: 'z9hG4bKliveack' }, peer, toTag: tag }));
    rtp.to(answerMedia(ok).host, answerMedia(ok).port);
    await until(() => rtp.packets.length > 3, 40_000, 'persona audio on the live call');
    live = { peer, rtp, ids, tag };
  });
  after(async () => {
    for (const c of closers) await c.close();
    other?.ws.close();
    if (node && !(await alive(node)))
      console.log(`node died:\n${node.stderr().slice(-3000)}\n${node.stdout().slice(-3000)}`);
    await node?.kill();
  });

  const uri = () => `sip:honeypot@127.0.0.1:${node.sipPort}`;
  const keyed = () => ({ 'X-Service-Key': key, 'X-Report': 'false' });

  /** The node is up, and the bystander's socket still gets its events. */
  async function stillServing(): Promise<void> {
    // An escaping error ends the process on a later turn of the loop: give it that turn.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await alive(node), `node alive\n${node.stderr().slice(-2000)}`).to.equal(true);
    lines++;
    transcript(other, `still here, line ${lines}`);
    await until(
      () => other.events.filter((e) => e.type === 'transcript.line').length >= lines,
      10_000,
      'bystander event',
    );
  }

  function sipp(keys: Record<string, string>) {
    return freeMediaPort().then((mediaPort) =>
      runSipp({ scenario: 'uac-bad-offer.xml', target, mediaPort, keys: { caller: '+12025550123', ...keys } }),
    );
  }

  it('keyed INVITE with m= port 70000 (SIPp): 488 naming the port, never a 200, and the node goes on', async function () {
    if (!sippAvailable()) this.skip();
    const result = await sipp({ ruri: uri(), service_key: key, sdp_address: PEER_HOST, sdp_port: '70000' });
    expect(result.code, `${result.stdout.slice(-2000)}\n${result.errors}`).to.equal(0);
    expect(result.messages).to.match(/SIP\/2\.0 488 Not Acceptable Here \(m= port 70000 is out of range \(1-65535\)\)/);
    expect(result.messages).to.not.match(/SIP\/2\.0 200/);
    await stillServing();
  });

  it('keyless INVITE from a filed number to a honeypot domain (SIPp): the same 488, and the node goes on', async function () {
    if (!sippAvailable()) this.skip();
    const result = await sipp({
      ruri: 'sip:+18005550100@trap.example',
      caller: SCAMMER,
      service_key: 'none',
      sdp_address: PEER_HOST,
      sdp_port: '70000',
    });
    expect(result.code, `${result.stdout.slice(-2000)}\n${result.errors}`).to.equal(0);
    expect(result.messages).to.match(/SIP\/2\.0 488 Not Acceptable Here \(m= port 70000/);
    // The persona is still there for a proper offer from the same caller (the refusal was the offer's).
    const result2 = await sipp({
      ruri: 'sip:+18005550100@trap.example',
      caller: SCAMMER,
      service_key: 'none',
      sdp_address: '255.255.255.255',
      sdp_port: '4000',
    });
    expect(result2.messages).to.match(
      /SIP\/2\.0 488 Not Acceptable Here \(c= address 255\.255\.255\.255 is broadcast\)/,
    );
    await stillServing();
  });

  it('every other field a sender could aim elsewhere is refused before answering, each naming its field', async () => {
    const peer = await SipPeer.udp(target);
    closers.push(peer);
    const cases: Array<[string, RegExp, number?]> = [
      [offerSdp(65536), /m= port 65536 is out of range/],
      [offerSdp(4001), /m= port 4001 is odd/],
      [offerSdp(4000).replace(`c=IN IP4 ${PEER_HOST}`, 'c=IN IP4 224.0.0.1'), /c= address 224\.0\.0\.1 is multicast/],
      [offerSdp(4000).replace(`c=IN IP4 ${PEER_HOST}`, 'c=IN IP4 0.0.0.0'), /c= address 0\.0\.0\.0 is unspecified/],
      [
        offerSdp(4000).replace(`c=IN IP4 ${PEER_HOST}`, 'c=IN IP4 victim.example'),
        /c= address victim\.example is not an IP/,
      ],
      [offerSdp(4000).replace(`c=IN IP4 ${PEER_HOST}\r\n`, ''), /c= line missing/],
      [offerSdp(4000, '9'), /no G\.711/],
      [offerSdp(4000).replace('m=audio 4000', 'm=audio -4000'), /bad m= line/, 400],
    ];
    for (const [body, reason, status = 488] of cases) {
      const ids = newIds();
      peer.send(request({ method: 'INVITE', uri: uri(), ids, peer, headers: keyed(), body }));
      // The first answer past 100 Trying is the final one: no 180 rings for an offer that is refused.
      const got = (
        await peer.wait(
          (r) =>
            r.message.type === 'response' && r.message.status > 100 && r.message.headers.get('call-id') === ids.callId,
          10_000,
        )
      ).message as SipResponse;
      expect(got.status, reason.source).to.equal(status);
      expect(got.reason).to.match(reason);
      peer.send(
        request({ method: 'ACK', uri: uri(), ids, peer, toTag: /;tag=([^;\s]+)/.exec(got.headers.get('to')!)![1] }),
      );
    }
    await stillServing();
  });

  it('a re-INVITE on the live call naming port 70000 or broadcast is refused; the call goes on and ends normally', async () => {
    const { peer, rtp, ids, tag } = live;
    let cseq = 2;
    const reinvite = async (body: string): Promise<SipResponse> => {
      const re = { ...ids, cseq, branch: `z9hG4bKre${cseq}x` };
      cseq++;
      peer.send(request({ method: 'INVITE', uri: uri(), ids: re, peer, toTag: tag, body }));
      const res = (
        await peer.wait(
          (r) =>
            r.message.type === 'response' &&
            r.message.status >= 200 &&
            r.message.headers.get('cseq') === `${re.cseq} INVITE`,
          10_000,
        )
      ).message as SipResponse;
      // A 2xx's ACK is its own transaction; a failure's shares the INVITE's branch (RFC 3261 §17.1.1.3).
      const ackIds = res.status < 300 ? { ...re, branch: `${re.branch}ack` } : re;
      peer.send(request({ method: 'ACK', uri: uri(), ids: ackIds, peer, toTag: tag }));
      return res;
    };
    const bad = await reinvite(offerSdp(70000));
    expect(bad.status).to.equal(488);
    expect(bad.reason).to.match(/m= port 70000 is out of range/);
    const broadcast = await reinvite(offerSdp(4000).replace(`c=IN IP4 ${PEER_HOST}`, 'c=IN IP4 255.255.255.255'));
    expect(broadcast.status).to.equal(488);
    await stillServing();
    // The dialog, its media and its session are untouched: a proper re-INVITE is answered and the
    // caller's BYE ends the call (not 481).
    const good = await reinvite(offerSdp(rtp.port));
    expect(good.status).to.equal(200);
    peer.send(
      request({ method: 'BYE', uri: uri(), ids: { ...ids, cseq: cseq++, branch: 'z9hG4bKlivebye' }, peer, toTag: tag }),
    );
    expect((await peer.finalResponse('BYE')).status).to.equal(200);
    await until(
      async () => (await storedSessions(node.dataDir)).some((r) => r.doc.call_id === ids.callId && r.state === 'ended'),
      20_000,
      'the live call stored as ended',
    );
    expect(node.stderr()).to.not.match(/ERR_SOCKET_BAD_PORT|RangeError/);
  });
});
