import { expect } from 'chai';
import { HONEYPOT_HOLD_SECONDS, el, escapeXml, filterXml, honeypotXml, renderXml } from '../../../src/transport/xml.js';
import { childrenNamed, parseXml, streamParameters } from '../../fixtures/vendor/xml-parse.js';

const NASTY = `https://h.example/hook?a=1&b="2"&c='3'<x>\t\n`;

describe('transport/xml: writer', () => {
  it('escapes every markup character so values survive a round trip through a strict parser', () => {
    const doc = renderXml(el('R', { v: NASTY }, el('T', {}, NASTY)));
    const root = parseXml(doc);
    expect(root.attrs.v).to.equal(NASTY);
    expect(root.children[0]?.text).to.equal(NASTY.trim());
  });

  it('drops characters XML cannot carry', () => {
    expect(escapeXml('a\u0000b\u001bc')).to.equal('abc');
  });

  it('leaves out undefined attributes and refuses invalid names', () => {
    expect(renderXml(el('A', { x: undefined, y: 1 }))).to.contain('<A y="1"/>');
    expect(() => el('bad name')).to.throw();
    expect(() => el('A', { 'on"x': '1' })).to.throw();
  });

  it('the test parser itself rejects unescaped content (so the round trip can fail)', () => {
    expect(() => parseXml('<a v="x"y"/>')).to.throw();
    expect(() => parseXml('<a>&</a>')).to.throw();
    expect(() => parseXml('<a><b></a></b>')).to.throw();
    expect(() => parseXml('<a v="1" v="2"/>')).to.throw();
    expect(() => parseXml('<a/><b/>')).to.throw();
  });
});

describe('transport/xml: vendor documents', () => {
  const params = { key: 'k&"<', from: '+15551234567', webhook: NASTY, language: undefined, report: '' };

  it('vendor A filter: <Start><Stream> on the inbound track with parameters, then <Dial>', () => {
    const root = parseXml(
      filterXml('vendor_a', {
        streamUrl: 'wss://x.example/voice/filter/stream',
        forward: '+15557654321',
        bothTracks: false,
        params,
      }),
    );
    expect(root.name).to.equal('Response');
    expect(root.children.map((c) => c.name)).to.deep.equal(['Start', 'Dial']);
    const stream = root.children[0]!.children[0]!;
    expect(stream.name).to.equal('Stream');
    expect(stream.attrs).to.deep.equal({ url: 'wss://x.example/voice/filter/stream', track: 'inbound_track' });
    // Empty and missing values are not sent as parameters.
    expect(streamParameters(stream)).to.deep.equal({ key: 'k&"<', from: '+15551234567', webhook: NASTY });
    expect(root.children[1]!.text).to.equal('+15557654321');
  });

  it('vendor A filter with both tracks streams both_tracks', () => {
    const root = parseXml(
      filterXml('vendor_a', { streamUrl: 'wss://x/s', forward: '+15557654321', bothTracks: true, params: {} }),
    );
    expect(root.children[0]!.children[0]!.attrs.track).to.equal('both_tracks');
  });

  it('vendor B filter: PCMU stream and <Dial><Number>', () => {
    const root = parseXml(
      filterXml('vendor_b', { streamUrl: 'wss://x/s', forward: '+15557654321', bothTracks: false, params }),
    );
    const stream = root.children[0]!.children[0]!;
    expect(stream.attrs.codec).to.equal('PCMU');
    const dial = childrenNamed(root, 'Dial')[0]!;
    expect(childrenNamed(dial, 'Number')[0]?.text).to.equal('+15557654321');
  });

  it('vendor A honeypot: <Connect><Stream> then <Hangup/>', () => {
    const root = parseXml(honeypotXml('vendor_a', { streamUrl: 'wss://x/h', params: { key: 'k', persona: 'p1' } }));
    expect(root.children.map((c) => c.name)).to.deep.equal(['Connect', 'Hangup']);
    const stream = root.children[0]!.children[0]!;
    expect(stream.attrs).to.deep.equal({ url: 'wss://x/h' });
    expect(streamParameters(stream)).to.deep.equal({ key: 'k', persona: 'p1' });
  });

  it('vendor B honeypot: RTP two-way stream in PCMU, held by a pause, then hangup', () => {
    const root = parseXml(honeypotXml('vendor_b', { streamUrl: 'wss://x/h', params: { key: 'k' } }));
    expect(root.children.map((c) => c.name)).to.deep.equal(['Start', 'Pause', 'Hangup']);
    const stream = root.children[0]!.children[0]!;
    expect(stream.attrs).to.include({ bidirectionalMode: 'rtp', bidirectionalCodec: 'PCMU', codec: 'PCMU' });
    expect(root.children[1]!.attrs.length).to.equal(String(HONEYPOT_HOLD_SECONDS));
  });
});
