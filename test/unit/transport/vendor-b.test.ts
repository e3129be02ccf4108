import { expect } from 'chai';
import type { SessionEvent } from '../../../src/domain/events.js';
import type { Frame, OutboundFrame } from '../../../src/domain/frames.js';
import type { Decoded } from '../../../src/transport/types.js';
import { VendorBSerializer } from '../../../src/transport/vendor-b.js';
import { alawToLinear, disallowedReason, loadSession, mediaBytes } from '../../fixtures/vendor/replay.js';

const EVENT: SessionEvent = { type: 'session.started', session_id: 's', kind: 'honeypot', at: '2026-01-01T00:00:00Z' };
const OUTBOUND: OutboundFrame[] = [
  { kind: 'audio', data: new Uint8Array([0xd5, 0x55, 0x2a]) },
  { kind: 'mark', name: 'utt-1' },
  { kind: 'clear' },
  { kind: 'hangup' },
];

function framesOf(ds: Decoded[]): Frame[] {
  return ds.flatMap((d) => (d.type === 'frame' ? [d.frame] : []));
}

function startWith(start: Record<string, unknown>, product: 'filter' | 'honeypot' = 'filter') {
  const s = new VendorBSerializer(product);
  const d = s.decodeText(
    JSON.stringify({ event: 'start', stream_id: 'sid-1', start: { call_control_id: 'v2:abc', ...start } }),
  );
  return { s, d };
}

describe('transport/vendor-b: recorded filter session (PCMU)', () => {
  const lines = loadSession('vendor-b-filter');
  const s = new VendorBSerializer('filter');
  const decoded = lines.map((l) => s.decodeText(l));
  const frames = framesOf(decoded);

  it('starts with the call control id, the native numbers and the custom parameters as options', () => {
    expect(decoded[0]).to.deep.equal({ type: 'ignore' });
    expect(decoded[1]).to.deep.equal({
      type: 'start',
      info: {
        callId: 'v2:T02llQxIyaRkhfRKxgAP8nY511EhFLizdvdUKJiSw8d6A9BborherQ',
        from: '+13122010094',
        to: '+13122123456',
        audio: { encoding: 'mulaw', sampleRate: 8000 },
        params: { language: 'en-US', report: 'true' },
        streamId: '32de0dea-53cb-4b21-89a4-9e1819c043bc',
      },
    });
  });

  it('passes the media bytes through unchanged, then a dtmf digit, ignores the error event, and stops', () => {
    const audio = frames.filter((f) => f.kind === 'audio');
    const got = Buffer.concat(audio.map((f) => (f.kind === 'audio' ? f.data : new Uint8Array())));
    expect(Buffer.compare(got, mediaBytes(lines))).to.equal(0);
    expect(frames.filter((f) => f.kind === 'dtmf')).to.deep.equal([{ kind: 'dtmf', digit: '1' }]);
    const errorAt = lines.findIndex((l) => l.includes('"event":"error"'));
    expect(errorAt).to.be.greaterThan(0);
    expect(decoded[errorAt]).to.deep.equal({ type: 'ignore' });
    expect(frames.at(-1)).to.deep.equal({ kind: 'stop', reason: 'stop' });
  });

  it('writes nothing back on the filter stream', () => {
    expect(s.encodeEvent({ ...EVENT, kind: 'filter' })).to.equal(null);
    for (const o of OUTBOUND) expect(s.encodeOutbound(o)).to.equal(null);
  });
});

describe('transport/vendor-b: recorded honeypot session (PCMA)', () => {
  const lines = loadSession('vendor-b-honeypot');
  const s = new VendorBSerializer('honeypot');
  const decoded = lines.map((l) => s.decodeText(l));
  const frames = framesOf(decoded);

  it('declares A-law at 8 kHz and delivers A-law speech', () => {
    expect(decoded[1]?.type === 'start' && decoded[1].info.audio).to.deep.equal({ encoding: 'alaw', sampleRate: 8000 });
    const got = Buffer.concat(frames.flatMap((f) => (f.kind === 'audio' ? [f.data] : [])));
    let loud = 0;
    for (let i = 0; i < got.length; i += 160) {
      let sum = 0;
      for (const b of got.subarray(i, i + 160)) sum += alawToLinear(b) ** 2;
      if (Math.sqrt(sum / 160) > 1000) loud++;
    }
    expect(loud).to.be.greaterThan(80);
  });

  it('writes only media, mark and clear without a stream id, and never events', () => {
    expect(s.encodeEvent(EVENT)).to.equal(null);
    const written = OUTBOUND.map((o) => s.encodeOutbound(o)).filter((w) => w !== null);
    expect(written).to.have.length(3);
    // Only the media message is sheddable audio under backpressure.
    expect(written.map((w) => w.audio === true)).to.deep.equal([true, false, false]);
    for (const w of written) expect(disallowedReason('vendor_b', 'honeypot', w.data, w.binary)).to.equal(null);
    expect(JSON.parse(written[0]!.data as string)).to.deep.equal({
      event: 'media',
      media: { payload: Buffer.from([0xd5, 0x55, 0x2a]).toString('base64') },
    });
    expect(frames.filter((f) => f.kind === 'dtmf')).to.deep.equal([{ kind: 'dtmf', digit: '9' }]);
  });
});

describe('transport/vendor-b: codecs and bad input', () => {
  it('rejects codecs it cannot transcribe, naming the field', () => {
    for (const codec of ['G722', 'OPUS', 'AMR-WB']) {
      const { d } = startWith({ media_format: { encoding: codec, sample_rate: 16000, channels: 1 } });
      expect(d.type === 'reject' && d.reason).to.match(/^start\.media_format\.encoding/);
    }
  });

  it('rejects a sample rate outside 8000–48000 and more than one channel', () => {
    const r = startWith({ media_format: { encoding: 'PCMU', sample_rate: 4000 } }).d;
    expect(r.type === 'reject' && r.reason).to.match(/^start\.media_format\.sample_rate/);
    const c = startWith({ media_format: { encoding: 'PCMU', sample_rate: 8000, channels: 2 } }).d;
    expect(c.type === 'reject' && c.reason).to.match(/^start\.media_format\.channels/);
  });

  it('takes L16 at its declared rate and swaps its big-endian samples to little-endian both ways', () => {
    const { s, d } = startWith({ media_format: { encoding: 'L16', sample_rate: 16000, channels: 1 } }, 'honeypot');
    expect(d.type === 'start' && d.info.audio).to.deep.equal({ encoding: 'pcm16', sampleRate: 16000 });
    // 0x0102 and 0x0304 on the wire (big-endian) are [0x02,0x01,0x04,0x03] in pcm16.
    const m = s.decodeText(
      JSON.stringify({
        event: 'media',
        media: { track: 'inbound', payload: Buffer.from([1, 2, 3, 4]).toString('base64') },
      }),
    );
    expect(m.type === 'frame' && m.frame.kind === 'audio' && [...m.frame.data]).to.deep.equal([2, 1, 4, 3]);
    const out = s.encodeOutbound({ kind: 'audio', data: new Uint8Array([2, 1, 4, 3]) });
    expect(JSON.parse(out!.data as string).media.payload).to.equal(Buffer.from([1, 2, 3, 4]).toString('base64'));
  });

  it('prefers an E.164 number from custom parameters over a SIP URI, else keeps the URI as given', () => {
    const { d } = startWith({ from: 'sip:anon@example.com', custom_parameters: { from: '+15550001111', key: 'k' } });
    expect(d.type === 'start' && d.info.from).to.equal('+15550001111');
    expect(d.type === 'start' && d.info.params).to.deep.equal({ key: 'k' });
    const w = startWith({ from: 'sip:anon@example.com' }).d;
    expect(w.type === 'start' && w.info.from).to.equal('sip:anon@example.com');
  });

  it('defaults to PCMU at 8 kHz when the start event has no media format', () => {
    const { d } = startWith({});
    expect(d.type === 'start' && d.info.audio).to.deep.equal({ encoding: 'mulaw', sampleRate: 8000 });
  });

  it('counts invalid base64 media and ignores binary frames', () => {
    const { s } = startWith({});
    expect(s.decodeText('{"event":"media","media":{"payload":"not base64!"}}')).to.deep.equal({ type: 'ignore' });
    expect(s.invalidFrames).to.equal(1);
    expect(s.decodeBinary(new Uint8Array([1]))).to.deep.equal({ type: 'ignore' });
  });
});
