import { expect } from 'chai';
import type { SessionEvent } from '../../../src/domain/events.js';
import type { Frame, OutboundFrame } from '../../../src/domain/frames.js';
import type { Decoded } from '../../../src/transport/types.js';
import { VendorASerializer } from '../../../src/transport/vendor-a.js';
import { disallowedReason, loadSession, mediaBytes, mulawToLinear } from '../../fixtures/vendor/replay.js';

const STREAM = 'MZ0f8d4a7c2b9e41d6a3c5e7f9b1d3a5c7';
const EVENT: SessionEvent = { type: 'session.started', session_id: 's', kind: 'filter', at: '2026-01-01T00:00:00Z' };
const OUTBOUND: OutboundFrame[] = [
  { kind: 'audio', data: new Uint8Array([0xff, 0x7f, 0x00]) },
  { kind: 'mark', name: 'utt-1' },
  { kind: 'clear' },
  { kind: 'hangup' },
];

function decodeAll(s: VendorASerializer, lines: readonly string[]): Decoded[] {
  return lines.map((l) => s.decodeText(l));
}

function framesOf(ds: Decoded[]): Frame[] {
  return ds.flatMap((d) => (d.type === 'frame' ? [d.frame] : []));
}

function rms(bytes: Uint8Array): number {
  let sum = 0;
  for (const b of bytes) sum += mulawToLinear(b) ** 2;
  return Math.sqrt(sum / Math.max(1, bytes.length));
}

describe('transport/vendor-a: recorded filter session (both tracks)', () => {
  const lines = loadSession('vendor-a-filter');
  const s = new VendorASerializer('filter');
  const decoded = decodeAll(s, lines);
  const frames = framesOf(decoded);

  it('ignores connected and starts from the start event with callSid, numbers and options', () => {
    expect(decoded[0]).to.deep.equal({ type: 'ignore' });
    expect(decoded[1]).to.deep.equal({
      type: 'start',
      info: {
        callId: 'CA6b1e3d5f7a9c2e4b6d8f0a1c3e5b7d9f',
        from: '+15551234567',
        to: '+15557654321',
        audio: { encoding: 'mulaw', sampleRate: 8000 },
        params: { tracks: 'both', language: 'en-US', report: 'true' },
        streamId: STREAM,
        tracks: ['inbound', 'outbound'],
      },
    });
    expect(s.protocol).to.equal('vendor_a');
  });

  it('turns every media message into a 20 ms audio frame on its own track', () => {
    const audio = frames.filter((f) => f.kind === 'audio');
    const media = lines.filter((l) => l.includes('"event":"media"'));
    expect(audio).to.have.length(media.length);
    for (const f of audio) expect(f.kind === 'audio' && f.data.byteLength).to.equal(160);
    const inbound = audio.filter((f) => f.kind === 'audio' && f.track === 'inbound');
    const outbound = audio.filter((f) => f.kind === 'audio' && f.track === 'outbound');
    expect(inbound.length).to.be.greaterThan(300);
    expect(outbound.length).to.equal(inbound.length);
  });

  it('delivers the exact G.711 bytes the vendor sent, and they carry speech', () => {
    const got = Buffer.concat(frames.flatMap((f) => (f.kind === 'audio' && f.track === 'inbound' ? [f.data] : [])));
    expect(Buffer.compare(got, mediaBytes(lines, 'inbound'))).to.equal(0);
    // Silence first (the callee answers), then the caller speaks: loud 20 ms frames exist.
    expect(rms(got.subarray(0, 1600))).to.be.lessThan(50);
    let loud = 0;
    for (let i = 0; i < got.length; i += 160) if (rms(got.subarray(i, i + 160)) > 1000) loud++;
    expect(loud).to.be.greaterThan(100);
  });

  it('ends with a stop frame and writes nothing back on the filter', () => {
    expect(frames.at(-1)).to.deep.equal({ kind: 'stop', reason: 'stop' });
    expect(s.encodeEvent(EVENT)).to.equal(null);
    for (const o of OUTBOUND) expect(s.encodeOutbound(o)).to.equal(null);
  });
});

describe('transport/vendor-a: recorded honeypot session', () => {
  const lines = loadSession('vendor-a-honeypot');
  const s = new VendorASerializer('honeypot');
  const decoded = decodeAll(s, lines);
  const frames = framesOf(decoded);

  it('turns dtmf events into digits in order and ignores mark echoes', () => {
    expect(frames.filter((f) => f.kind === 'dtmf')).to.deep.equal([
      { kind: 'dtmf', digit: '5' },
      { kind: 'dtmf', digit: '#' },
    ]);
    const markAt = lines.findIndex((l) => l.includes('"event":"mark"'));
    expect(decoded[markAt]).to.deep.equal({ type: 'ignore' });
  });

  it('writes only media, mark and clear with the streamSid, and never events', () => {
    expect(s.encodeEvent({ ...EVENT, kind: 'honeypot' })).to.equal(null);
    const written = OUTBOUND.map((o) => s.encodeOutbound(o)).filter((w) => w !== null);
    expect(written).to.have.length(3);
    // Only the media message is sheddable audio under backpressure.
    expect(written.map((w) => w.audio === true)).to.deep.equal([true, false, false]);
    for (const w of written) expect(disallowedReason('vendor_a', 'honeypot', w.data, w.binary, STREAM)).to.equal(null);
    expect(JSON.parse(written[0]!.data as string)).to.deep.equal({
      event: 'media',
      streamSid: STREAM,
      media: { payload: Buffer.from([0xff, 0x7f, 0x00]).toString('base64') },
    });
  });

  it('writes no audio for an empty frame or before the start event', () => {
    expect(s.encodeOutbound({ kind: 'audio', data: new Uint8Array(0) })).to.equal(null);
    expect(new VendorASerializer('honeypot').encodeOutbound({ kind: 'clear' })).to.equal(null);
  });
});

describe('transport/vendor-a: bad input', () => {
  const start = (startFields: Record<string, unknown>) =>
    new VendorASerializer('filter').decodeText(
      JSON.stringify({ event: 'start', streamSid: 'MZ1', start: { callSid: 'CA1', ...startFields } }),
    );

  it('counts and drops media with invalid base64', () => {
    const s = new VendorASerializer('filter');
    s.decodeText(JSON.stringify({ event: 'start', streamSid: 'MZ1', start: { callSid: 'CA1' } }));
    expect(s.decodeText('{"event":"media","media":{"track":"inbound","payload":"@@@@"}}')).to.deep.equal({
      type: 'ignore',
    });
    expect(s.decodeText('{"event":"media","media":{"track":"inbound","payload":"AAA"}}')).to.deep.equal({
      type: 'ignore',
    });
    expect(s.invalidFrames).to.equal(2);
    expect(s.decodeText('{"event":"media","media":{"track":"inbound","payload":""}}')).to.deep.equal({
      type: 'ignore',
    });
    expect(s.invalidFrames).to.equal(2);
  });

  it('ignores unknown events, bad JSON and binary frames', () => {
    const s = new VendorASerializer('filter');
    expect(s.decodeText('{"event":"something-new"}')).to.deep.equal({ type: 'ignore' });
    expect(s.decodeText('{')).to.deep.equal({ type: 'ignore' });
    expect(s.decodeBinary(new Uint8Array([1, 2]))).to.deep.equal({ type: 'ignore' });
  });

  it('keeps a caller that is not E.164 as given instead of refusing the call', () => {
    const d = start({ customParameters: { from: 'anonymous', to: '+15557654321' } });
    expect(d.type === 'start' && d.info.from).to.equal('anonymous');
    expect(d.type === 'start' && d.info.to).to.equal('+15557654321');
  });

  it('keeps the key parameter for the socket to authenticate, and drops non-string parameters', () => {
    const d = start({ customParameters: { key: 'k-123', webhook: 'https://h.example/x', n: 5 } });
    expect(d.type === 'start' && d.info.params).to.deep.equal({ key: 'k-123', webhook: 'https://h.example/x' });
  });

  it('refuses a honeypot start without a stream id (nothing could be sent back), but not a filter start', () => {
    const msg = JSON.stringify({ event: 'start', start: { callSid: 'CA1' } });
    const d = new VendorASerializer('honeypot').decodeText(msg);
    expect(d.type === 'reject' && d.reason).to.match(/^streamSid/);
    expect(new VendorASerializer('filter').decodeText(msg).type).to.equal('start');
  });

  it('rejects a media format other than 8 kHz mu-law, naming the field', () => {
    const d = start({ mediaFormat: { encoding: 'audio/l16', sampleRate: 16000, channels: 1 } });
    expect(d.type).to.equal('reject');
    expect(d.type === 'reject' && d.reason).to.match(/^start\.mediaFormat\.encoding/);
    const r = start({ mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 16000 } });
    expect(r.type === 'reject' && r.reason).to.match(/^start\.mediaFormat\.sampleRate/);
  });
});
