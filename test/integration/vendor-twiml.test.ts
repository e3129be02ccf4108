import { expect } from 'chai';
import twilio from 'twilio';
import { parseXml, type XmlNode } from '../fixtures/vendor/xml-parse.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Vendor A is Twilio Media Streams. The TwiML our entry points answer must be the TwiML Twilio's own
 * library builds for the same call: built here with the `twilio` package and compared element by element
 * (names, attributes, order, text), so a verb, attribute or parameter Twilio would not write fails.
 */

const PUBLIC = 'https://voice.example.com';
const WEBHOOK = 'https://hooks.example.com/voice';
/** What Twilio posts to a Voice URL (form-encoded): the call's numbers come from here. */
const CALL = { CallSid: 'CA0123456789abcdef0123456789abcdef', From: '+15551230000', To: '+15559870000' };

/** The document as a tree; `<Parameter>`s (which Twilio reads as a map) in name order, everything else as written. */
function tree(xml: string): XmlNode {
  const norm = (n: XmlNode): XmlNode => {
    const children = n.children.map(norm);
    if (n.name === 'Stream')
      children.sort((a, b) => (a.attrs.name ?? '').localeCompare(b.attrs.name ?? '') || a.name.localeCompare(b.name));
    return { ...n, children };
  };
  return norm(parseXml(xml));
}

describe('vendor A (Twilio) TwiML, checked against the twilio library', function () {
  this.timeout(30_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ VOICE_PUBLIC_URL: PUBLIC });
  });
  after(async () => server?.close());

  async function answer(path: string, query: Record<string, string>): Promise<string> {
    const qs = new URLSearchParams({ key: server.key, ...query }).toString();
    const res = await fetch(`${server.url}${path}?${qs}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(CALL).toString(),
    });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/xml/);
    return res.text();
  }

  it('filter: <Start><Stream> forking both tracks to the filter socket, then <Dial> the forward number', async () => {
    const ours = await answer('/voice/filter/vendor-a-xml', {
      forward: '+15550001111',
      webhook: WEBHOOK,
      tracks: 'both',
      report: 'true',
    });
    const expected = new twilio.twiml.VoiceResponse();
    const stream = expected
      .start()
      .stream({ url: 'wss://voice.example.com/voice/filter/stream', track: 'both_tracks' });
    for (const [name, value] of [
      ['key', server.key],
      ['from', CALL.From],
      ['to', CALL.To],
      ['webhook', WEBHOOK],
      ['tracks', 'both'],
      ['report', 'true'],
    ] as const)
      stream.parameter({ name, value });
    expected.dial('+15550001111');
    expect(tree(ours)).to.deep.equal(tree(expected.toString()));
  });

  it('filter without tracks: the caller only (inbound_track)', async () => {
    const ours = await answer('/voice/filter/vendor-a-xml', { forward: '+15550001111' });
    const expected = new twilio.twiml.VoiceResponse();
    const stream = expected
      .start()
      .stream({ url: 'wss://voice.example.com/voice/filter/stream', track: 'inbound_track' });
    stream.parameter({ name: 'key', value: server.key });
    stream.parameter({ name: 'from', value: CALL.From });
    stream.parameter({ name: 'to', value: CALL.To });
    expected.dial('+15550001111');
    expect(tree(ours)).to.deep.equal(tree(expected.toString()));
  });

  it('honeypot: <Connect><Stream> to the honeypot socket (two-way), then <Hangup/>', async () => {
    const ours = await answer('/voice/honeypot/vendor-a-xml', { persona: 'margaret', webhook: WEBHOOK });
    const expected = new twilio.twiml.VoiceResponse();
    const stream = expected.connect().stream({ url: 'wss://voice.example.com/voice/honeypot/stream' });
    for (const [name, value] of [
      ['key', server.key],
      ['from', CALL.From],
      ['to', CALL.To],
      ['webhook', WEBHOOK],
      ['persona', 'margaret'],
    ] as const)
      stream.parameter({ name, value });
    expected.hangup();
    expect(tree(ours)).to.deep.equal(tree(expected.toString()));
  });
});
