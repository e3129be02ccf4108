import { expect } from 'chai';
import { buildTelephoneEvent, DtmfDetector, parseTelephoneEvent } from '../../../src/transport/sip/dtmf.js';
import { JitterBuffer } from '../../../src/transport/sip/jitter.js';
import { buildRtp, parseRtp, seqDelta, type RtpPacket } from '../../../src/transport/sip/rtp.js';

function pkt(sequence: number, ssrc = 1): RtpPacket {
  return {
    payloadType: 0,
    marker: false,
    sequence,
    timestamp: sequence * 160,
    ssrc,
    payload: Uint8Array.of(sequence & 0xff),
  };
}

describe('rtp packets', () => {
  it('round-trips the fixed header and payload', () => {
    const p: RtpPacket = {
      payloadType: 8,
      marker: true,
      sequence: 65535,
      timestamp: 0xfffffff0,
      ssrc: 0xdeadbeef,
      payload: new Uint8Array(160).fill(0xd5),
    };
    const wire = buildRtp(p);
    expect(wire.length).to.equal(172);
    expect(wire[0]).to.equal(0x80);
    expect(wire[1]).to.equal(0x88);
    expect(parseRtp(wire)).to.deep.equal({ ...p, payload: wire.subarray(12) });
  });

  it('skips CSRCs, header extensions and padding; ignores RTCP and other versions', () => {
    const payload = Buffer.from([1, 2, 3]);
    const b = Buffer.concat([
      Buffer.from([0x80 | 0x20 | 0x10 | 0x01, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3]),
      Buffer.from([0, 0, 0, 9]), // one CSRC
      Buffer.from([0xbe, 0xde, 0, 1, 1, 2, 3, 4]), // extension of one word
      payload,
      Buffer.from([0, 2]), // two bytes of padding
    ]);
    expect(Buffer.from(parseRtp(b)!.payload)).to.deep.equal(payload);
    expect(parseRtp(Buffer.from([0x80, 200, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]))).to.equal(null);
    expect(parseRtp(Buffer.from([0x40, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]))).to.equal(null);
    expect(seqDelta(1, 65535)).to.equal(2);
    expect(seqDelta(65535, 1)).to.equal(-2);
  });
});

describe('jitter buffer', () => {
  it('undoes reordering within its depth and drops duplicates and late packets', () => {
    const jb = new JitterBuffer(3);
    const out: number[] = [];
    for (const s of [10, 12, 11, 13, 13, 15, 14, 16, 9]) out.push(...jb.push(pkt(s)).map((p) => p.sequence));
    out.push(...jb.flush().map((p) => p.sequence));
    expect(out).to.deep.equal([10, 11, 12, 13, 14, 15, 16]);
  });

  it('gives up a lost packet once the buffer is full, across the 16-bit wrap', () => {
    const jb = new JitterBuffer(2);
    const out: number[] = [];
    for (const s of [65534, 65535, 1, 2, 3]) out.push(...jb.push(pkt(s)).map((p) => p.sequence));
    // 0 never came: once 1, 2 and 3 wait past the depth it is given up and the rest flows in order.
    expect(out).to.deep.equal([65534, 65535, 1, 2, 3]);
    expect(jb.flush()).to.deep.equal([]);
  });

  it('starts a new sequence space when the SSRC changes, releasing what was held first', () => {
    const jb = new JitterBuffer(3);
    const out: string[] = [];
    const tag = (p: RtpPacket) => `${p.ssrc}:${p.sequence}`;
    for (const p of [pkt(100, 1), pkt(101, 1), pkt(5, 2), pkt(6, 2), pkt(7, 2)]) out.push(...jb.push(p).map(tag));
    // The old stream is released at the switch; the new one waits for its own depth, from its own start.
    expect(out).to.deep.equal(['1:100', '1:101']);
    out.push(...jb.push(pkt(4, 2)).map(tag), ...jb.push(pkt(8, 2)).map(tag));
    expect(out).to.deep.equal(['1:100', '1:101', '2:4', '2:5', '2:6', '2:7', '2:8']);
  });
});

describe('RFC 4733 telephone-events', () => {
  it('encodes and decodes keys, end bit, volume and duration', () => {
    const p = buildTelephoneEvent('#', true, 800, 10);
    expect([...p]).to.deep.equal([11, 0x8a, 0x03, 0x20]);
    expect(parseTelephoneEvent(p)).to.deep.equal({ digit: '#', end: true, volume: 10, duration: 800 });
    expect(parseTelephoneEvent(Uint8Array.of(16, 0x80, 0, 1))!.digit).to.equal(null);
  });

  it('takes each key once, from its first end packet (the end packet is sent three times)', () => {
    const d = new DtmfDetector();
    const got: Array<string | null> = [];
    const press = (digit: string, ts: number) => {
      got.push(d.accept(7, ts, buildTelephoneEvent(digit, false, 160)));
      got.push(d.accept(7, ts, buildTelephoneEvent(digit, false, 320)));
      for (let i = 0; i < 3; i++) got.push(d.accept(7, ts, buildTelephoneEvent(digit, true, 480)));
    };
    press('1', 1000);
    press('1', 5000);
    press('*', 9000);
    expect(got.filter((g) => g !== null)).to.deep.equal(['1', '1', '*']);
  });
});
