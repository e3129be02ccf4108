import { expect } from 'chai';
import { PendingVendorSerializer, detectSerializer } from '../../../src/transport/detect.js';
import { RawSerializer } from '../../../src/transport/raw.js';
import { VendorASerializer } from '../../../src/transport/vendor-a.js';
import { VendorBSerializer } from '../../../src/transport/vendor-b.js';
import { FIXTURES, loadSession } from '../../fixtures/vendor/replay.js';

describe('transport/detect', () => {
  it('recognises the raw start message', () => {
    const s = detectSerializer('{"type":"start","encoding":"mulaw"}', 'filter');
    expect(s).to.be.instanceOf(RawSerializer);
    expect(s?.protocol).to.equal('raw');
  });

  it('recognises each vendor from its start event alone', () => {
    for (const { name, vendor, product } of FIXTURES) {
      const start = loadSession(name)[1]!;
      const s = detectSerializer(start, product);
      expect(s?.protocol, name).to.equal(vendor);
      expect(s).to.be.instanceOf(vendor === 'vendor_a' ? VendorASerializer : VendorBSerializer);
      expect(s?.decodeText(start).type).to.equal('start');
    }
  });

  it('waits for the start event after a connected frame, then follows the right vendor', () => {
    for (const { name, vendor, product } of FIXTURES) {
      const lines = loadSession(name);
      const s = detectSerializer(lines[0]!, product);
      expect(s, name).to.be.instanceOf(PendingVendorSerializer);
      expect(s?.protocol, `${name} hint`).to.equal(vendor);
      expect(s?.decodeText(lines[0]!)).to.deep.equal({ type: 'ignore' });
      const started = s?.decodeText(lines[1]!);
      expect(started?.type).to.equal('start');
      expect(s?.protocol).to.equal(vendor);
      const media = s?.decodeText(lines[2]!);
      expect(media?.type === 'frame' && media.frame.kind).to.equal('audio');
    }
  });

  it('lets the start event overrule a misleading connected frame', () => {
    const s = detectSerializer('{"event":"connected","version":"1.0.0"}', 'honeypot')!;
    expect(s.protocol).to.equal('vendor_b');
    s.decodeText(loadSession('vendor-a-honeypot')[1]!);
    expect(s.protocol).to.equal('vendor_a');
    expect(s.encodeOutbound({ kind: 'clear' })?.data).to.contain('"streamSid"');
  });

  it('writes nothing while the vendor is undecided', () => {
    const s = detectSerializer('{"event":"connected","protocol":"Call","version":"1.0.0"}', 'honeypot')!;
    expect(s.encodeOutbound({ kind: 'clear' })).to.equal(null);
    expect(s.encodeEvent({ type: 'session.started', session_id: 'x', kind: 'honeypot', at: 'now' })).to.equal(null);
    expect(s.decodeBinary(new Uint8Array([1]))).to.deep.equal({ type: 'ignore' });
  });

  it('rejects a start event that matches no vendor after connected', () => {
    const s = detectSerializer('{"event":"connected"}', 'filter')!;
    const d = s.decodeText('{"event":"start","start":{}}');
    expect(d.type).to.equal('reject');
  });

  it('says nothing for frames that do not name a protocol', () => {
    for (const t of [
      '',
      'hello',
      '[]',
      '{"type":"transcript","text":"hi"}',
      '{"event":"media"}',
      '{"event":"start","start":{}}',
    ]) {
      expect(detectSerializer(t, 'filter'), t).to.equal(null);
    }
  });
});
