import { expect } from 'chai';
import dgram from 'node:dgram';
import { buildRtp, parseRtp, type RtpPacket } from '../../../src/transport/sip/rtp.js';
import { buildTelephoneEvent } from '../../../src/transport/sip/dtmf.js';
import { RtpSession } from '../../../src/transport/sip/rtp-session.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('rtp session (real UDP on loopback)', function () {
  this.timeout(10_000);
  let peer: dgram.Socket;
  let got: Array<RtpPacket & { at: number }>;
  const audio: Uint8Array[] = [];
  const digits: string[] = [];
  let timeouts = 0;
  let rtp: RtpSession;

  beforeEach(async () => {
    got = [];
    audio.length = 0;
    digits.length = 0;
    timeouts = 0;
    peer = dgram.createSocket('udp4');
    await new Promise<void>((r) => peer.bind(0, '127.0.0.2', () => r()));
    peer.on('message', (d) => {
      const p = parseRtp(d);
      if (p) got.push({ ...p, payload: Uint8Array.from(p.payload), at: performance.now() });
    });
    rtp = new RtpSession({
      host: '127.0.0.1',
      ports: { min: 0, max: 0 },
      payloadType: 0,
      dtmfPayloadType: 101,
      silenceByte: 0xff,
      peerAddress: '127.0.0.2',
      timeoutMs: 300,
      onAudio: (a) => audio.push(Uint8Array.from(a)),
      onDigit: (d) => digits.push(d),
      onTimeout: () => timeouts++,
    });
    await rtp.open();
    rtp.setRemote('127.0.0.2', peer.address().port);
  });
  afterEach(() => {
    rtp.close();
    peer.close();
  });

  it('sends 160-byte packets every 20 ms, marker on the first of each talkspurt, timestamps following the clock', async () => {
    rtp.play(new Uint8Array(160 * 5 + 40).fill(0x10));
    for (let t = 0; got.length < 6 && t < 50; t++) await sleep(20);
    await sleep(60);
    expect(got).to.have.length(6);
    expect(got.map((p) => p.marker)).to.deep.equal([true, false, false, false, false, false]);
    for (let i = 1; i < 6; i++) expect(got[i]!.sequence).to.equal((got[0]!.sequence + i) & 0xffff);
    for (let i = 1; i < 5; i++) expect((got[i]!.timestamp - got[0]!.timestamp) >>> 0).to.equal(160 * i);
    // The short tail waits one packet time for more audio, then goes out padded with silence, its
    // timestamp saying when it plays.
    expect([...got[5]!.payload.subarray(40)].every((b) => b === 0xff)).to.equal(true);
    expect((got[5]!.timestamp - got[0]!.timestamp) >>> 0).to.equal(160 * 6);
    // Paced, not a burst (arrival times on a busy loop are coarse, so the bounds are loose).
    expect(got[5]!.at - got[0]!.at).to.be.within(50, 300);
    expect(got[4]!.at - got[0]!.at).to.be.within(40, 250);
    // After a pause, a new talkspurt: marker again, sequence continues, timestamp jumps by the pause.
    await sleep(200);
    rtp.play(new Uint8Array(320).fill(0x10));
    await sleep(100);
    const next = got[6]!;
    expect(next.marker).to.equal(true);
    expect(next.sequence).to.equal((got[5]!.sequence + 1) & 0xffff);
    expect((next.timestamp - got[5]!.timestamp) >>> 0).to.be.greaterThan(160 * 10);
    expect(next.timestamp % 160).to.equal(got[0]!.timestamp % 160);
  });

  it('clear() drops what is queued', async () => {
    rtp.play(new Uint8Array(160 * 50).fill(0x10));
    await sleep(70);
    rtp.clear();
    await sleep(150);
    expect(got.length).to.be.within(3, 10);
  });

  it('takes the caller’s audio in order and keys once; ignores strangers, other payload types and RTCP', async () => {
    const send = (p: Partial<RtpPacket> & { sequence: number }, from = peer) =>
      from.send(
        buildRtp({
          payloadType: 0,
          marker: false,
          timestamp: p.sequence * 160,
          ssrc: 9,
          payload: Uint8Array.of(p.sequence),
          ...p,
        }),
        rtp.port,
        '127.0.0.1',
      );
    for (const s of [1, 3, 2, 4, 5]) send({ sequence: s });
    send({ sequence: 6, payloadType: 18 });
    for (let i = 0; i < 3; i++)
      send({ sequence: 7 + i, payloadType: 101, timestamp: 5000, payload: buildTelephoneEvent('9', true, 800) });
    const stranger = dgram.createSocket('udp4');
    await new Promise<void>((r) => stranger.bind(0, '127.0.0.3', () => r()));
    send({ sequence: 10, payload: Uint8Array.of(99) }, stranger);
    await sleep(200);
    stranger.close();
    expect(audio.map((a) => a[0])).to.deep.equal([1, 2, 3, 4, 5]);
    expect(digits).to.deep.equal(['9']);
  });

  it('reports a caller whose RTP stopped', async () => {
    peer.send(
      buildRtp({ payloadType: 0, marker: false, sequence: 1, timestamp: 0, ssrc: 1, payload: new Uint8Array(160) }),
      rtp.port,
      '127.0.0.1',
    );
    await sleep(150);
    expect(timeouts).to.equal(0);
    await sleep(300);
    expect(timeouts).to.equal(1);
  });
});
