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

describe('rtp session: media only to the host that called (real UDP on loopback)', function () {
  this.timeout(10_000);
  const sockets: dgram.Socket[] = [];
  const sessions: RtpSession[] = [];
  afterEach(() => {
    for (const s of sessions.splice(0)) s.close();
    for (const s of sockets.splice(0)) s.close();
  });

  /** A UDP socket on `host` counting the RTP it receives. */
  async function listener(host: string): Promise<{ sock: dgram.Socket; port: number; got: RtpPacket[] }> {
    const sock = dgram.createSocket('udp4');
    sockets.push(sock);
    await new Promise<void>((r) => sock.bind(0, host, () => r()));
    const got: RtpPacket[] = [];
    sock.on('message', (d) => {
      const p = parseRtp(d);
      if (p) got.push(p);
    });
    return { sock, port: sock.address().port, got };
  }

  async function session(mediaPeers: string[] = []): Promise<RtpSession> {
    const rtp = new RtpSession({
      host: '127.0.0.1',
      ports: { min: 0, max: 0 },
      payloadType: 0,
      silenceByte: 0xff,
      peerAddress: '127.0.0.2',
      mediaPeer: (a) => mediaPeers.includes(a),
      timeoutMs: 5000,
      onAudio: () => undefined,
      onDigit: () => undefined,
      onTimeout: () => undefined,
    });
    sessions.push(rtp);
    await rtp.open();
    return rtp;
  }

  const packet = (sequence: number) =>
    buildRtp({
      payloadType: 0,
      marker: false,
      sequence,
      timestamp: sequence * 160,
      ssrc: 7,
      payload: new Uint8Array(160),
    });

  it('sends nothing to a third host the offer names; after the caller’s first packet, only back to its source', async () => {
    const caller = await listener('127.0.0.2');
    const victim = await listener('127.0.0.3');
    const rtp = await session();
    rtp.setRemote('127.0.0.3', victim.port);
    rtp.play(new Uint8Array(160 * 10).fill(0x10));
    await sleep(300);
    expect(victim.got, 'nothing before the caller’s RTP').to.have.length(0);
    expect(rtp.sent).to.equal(0);
    // The caller's first packet, from its own (NAT-mapped) port: RTP latches onto that source.
    caller.sock.send(packet(1), rtp.port, '127.0.0.1');
    await sleep(50);
    rtp.play(new Uint8Array(160 * 5).fill(0x10));
    for (let t = 0; caller.got.length < 5 && t < 50; t++) await sleep(20);
    expect(caller.got.length).to.be.at.least(5);
    // A re-INVITE naming the third host again changes nothing: the latched source keeps the media.
    rtp.setRemote('127.0.0.3', victim.port);
    const before = caller.got.length;
    rtp.play(new Uint8Array(160 * 3).fill(0x10));
    await sleep(200);
    expect(caller.got.length).to.be.greaterThan(before);
    expect(victim.got, 'never anything to the third host').to.have.length(0);
  });

  it('takes no RTP from a third host, so a stranger can neither feed the call nor capture its media', async () => {
    const caller = await listener('127.0.0.2');
    const stranger = await listener('127.0.0.3');
    const rtp = await session();
    rtp.setRemote('127.0.0.3', stranger.port);
    stranger.sock.send(packet(1), rtp.port, '127.0.0.1');
    await sleep(50);
    expect(rtp.received).to.equal(0);
    rtp.play(new Uint8Array(160 * 3).fill(0x10));
    await sleep(150);
    expect(stranger.got).to.have.length(0);
    expect(caller.got).to.have.length(0);
  });

  it('sends to the offered host when it is a configured media peer (a trunk’s media server)', async () => {
    const trunkMedia = await listener('127.0.0.3');
    const rtp = await session(['127.0.0.3']);
    rtp.setRemote('127.0.0.3', trunkMedia.port);
    rtp.play(new Uint8Array(160 * 3).fill(0x10));
    for (let t = 0; trunkMedia.got.length < 3 && t < 50; t++) await sleep(20);
    expect(trunkMedia.got).to.have.length(3);
  });

  it('holds with 0.0.0.0 or port 0: nothing is sent until the next offer', async () => {
    const caller = await listener('127.0.0.2');
    const rtp = await session();
    rtp.setRemote('0.0.0.0', caller.port);
    rtp.play(new Uint8Array(160 * 3).fill(0x10));
    await sleep(150);
    expect(caller.got).to.have.length(0);
    rtp.setRemote('127.0.0.2', caller.port);
    rtp.play(new Uint8Array(160 * 3).fill(0x10));
    for (let t = 0; caller.got.length < 3 && t < 50; t++) await sleep(20);
    expect(caller.got).to.have.length(3);
  });
});
