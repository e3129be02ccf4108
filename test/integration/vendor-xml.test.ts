import { expect } from 'chai';
import http from 'node:http';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { childrenNamed, parseXml, streamParameters, type XmlNode } from '../fixtures/vendor/xml-parse.js';

interface Reply {
  status: number;
  type: string;
  body: string;
}

/** node:http rather than fetch: fetch does not let a test set the Host header a proxy would send. */
async function call(
  srv: TestServer,
  path: string,
  query: Record<string, string>,
  init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const qs = new URLSearchParams(query).toString();
  const body = init.form ? new URLSearchParams(init.form).toString() : '';
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${srv.url}${path}${qs ? `?${qs}` : ''}`,
      {
        method: init.method ?? 'POST',
        headers: {
          ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          ...(init.method === 'GET' ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
          ...init.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(init.method === 'GET' ? undefined : body);
  });
}

function stream(root: XmlNode, verb: string): XmlNode {
  const s = childrenNamed(root, verb)[0]?.children[0];
  if (!s || s.name !== 'Stream') throw new Error(`no <${verb}><Stream> in ${JSON.stringify(root)}`);
  return s;
}

describe('vendor-XML entry points', function () {
  let srv: TestServer;
  const vendorForm = { CallSid: 'CA123', From: '+15551230000', To: '+15559870000', AccountSid: 'AC1' };

  before(async () => {
    srv = await startTestServer();
  });
  after(async () => {
    await srv?.close();
  });

  it('vendor A filter: streams the inbound track to the filter socket with key, numbers and options as parameters', async () => {
    const r = await call(
      srv,
      '/voice/filter/vendor-a-xml',
      {
        key: srv.key,
        forward: '+15557654321',
        webhook: 'https://hooks.example/v?a=1&b="x"',
        language: 'en-US',
        report: 'true',
      },
      { form: vendorForm, headers: { 'x-forwarded-proto': 'https', host: 'voice.example.com' } },
    );
    expect(r.status).to.equal(200);
    expect(r.type).to.match(/^text\/xml/);
    const root = parseXml(r.body);
    const s = stream(root, 'Start');
    // No query string: the vendor refuses stream URLs that carry one.
    expect(s.attrs.url).to.equal('wss://voice.example.com/voice/filter/stream');
    expect(s.attrs.track).to.equal('inbound_track');
    expect(streamParameters(s)).to.deep.equal({
      key: srv.key,
      from: '+15551230000',
      to: '+15559870000',
      webhook: 'https://hooks.example/v?a=1&b="x"',
      language: 'en-US',
      report: 'true',
    });
    expect(childrenNamed(root, 'Dial')[0]?.text).to.equal('+15557654321');
  });

  it('vendor A filter with tracks=both streams both tracks and says so in the parameters', async () => {
    const r = await call(
      srv,
      '/voice/filter/vendor-a-xml',
      { key: srv.key, forward: '+15557654321', tracks: 'both' },
      { form: vendorForm },
    );
    const s = stream(parseXml(r.body), 'Start');
    expect(s.attrs.track).to.equal('both_tracks');
    expect(streamParameters(s).tracks).to.equal('both');
  });

  it('vendor B filter: PCMU stream and <Dial><Number>', async () => {
    const r = await call(
      srv,
      '/voice/filter/vendor-b-xml',
      { key: srv.key, forward: '+442071234567' },
      { form: vendorForm },
    );
    expect(r.status).to.equal(200);
    const root = parseXml(r.body);
    const s = stream(root, 'Start');
    expect(s.attrs.codec).to.equal('PCMU');
    // Vendor B keeps query strings: the key rides in the URL (as for any socket) and as a parameter.
    expect(s.attrs.url).to.equal(`${srv.wsUrl}/voice/filter/stream?key=${srv.key}`);
    expect(streamParameters(s).key).to.equal(srv.key);
    expect(childrenNamed(childrenNamed(root, 'Dial')[0]!, 'Number')[0]?.text).to.equal('+442071234567');
  });

  it('reads a forward number whose + was not URL-encoded', async () => {
    const r = await fetch(`${srv.url}/voice/filter/vendor-a-xml?key=${srv.key}&forward=+15557654321`, {
      method: 'POST',
    });
    expect(r.status).to.equal(200);
    expect(childrenNamed(parseXml(await r.text()), 'Dial')[0]?.text).to.equal('+15557654321');
  });

  it('GET previews the document with from/to from the query', async () => {
    const r = await call(
      srv,
      '/voice/filter/vendor-a-xml',
      { key: srv.key, forward: '+15557654321', from: '+15550001111' },
      { method: 'GET' },
    );
    expect(r.status).to.equal(200);
    expect(streamParameters(stream(parseXml(r.body), 'Start')).from).to.equal('+15550001111');
  });

  it('leaves out a withheld caller number instead of failing the call', async () => {
    const r = await call(
      srv,
      '/voice/filter/vendor-a-xml',
      { key: srv.key, forward: '+15557654321' },
      { form: { From: 'anonymous' } },
    );
    expect(r.status).to.equal(200);
    expect(streamParameters(stream(parseXml(r.body), 'Start'))).to.not.have.property('from');
  });

  it('takes the key from the X-Auth header too (and still passes it to the stream)', async () => {
    const r = await call(
      srv,
      '/voice/filter/vendor-b-xml',
      { forward: '+15557654321' },
      { headers: { 'x-auth': srv.key } },
    );
    expect(r.status).to.equal(200);
    expect(streamParameters(stream(parseXml(r.body), 'Start')).key).to.equal(srv.key);
  });

  it('answers 401 for a missing or wrong key', async () => {
    for (const path of ['/voice/filter/vendor-a-xml', '/voice/honeypot/vendor-b-xml']) {
      expect((await call(srv, path, { forward: '+15557654321' })).status, path).to.equal(401);
      expect((await call(srv, path, { key: 'wrong-key-123', forward: '+15557654321' })).status, path).to.equal(401);
    }
  });

  it('answers 400 naming the field for bad or missing values', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'forward'],
      [{ forward: '5557654321' }, 'forward'],
      [{ forward: '+1555&"<x>' }, 'forward'],
      [{ forward: '+15557654321', webhook: 'not a url' }, 'webhook'],
      [{ forward: '+15557654321', tracks: 'outbound' }, 'tracks'],
      [{ forward: '+15557654321', report: 'yes' }, 'report'],
      [{ forward: '+15557654321', language: 'english please' }, 'language'],
      [{ forward: '+15557654321', webhook: `https://h.example/${'x'.repeat(600)}` }, 'webhook'],
    ];
    for (const [q, field] of cases) {
      const r = await call(srv, '/voice/filter/vendor-a-xml', { key: srv.key, ...q });
      expect(r.status, JSON.stringify(q)).to.equal(400);
      const body = JSON.parse(r.body) as { status: string; message: string };
      expect(body.status).to.equal('error');
      expect(body.message, JSON.stringify(q)).to.match(new RegExp(`^${field}:`));
    }
  });

  it('ignores an HTTP webhook (the options table: "HTTP URLs are ignored") rather than refusing the call', async () => {
    for (const path of ['/voice/filter/vendor-a-xml', '/voice/filter/vendor-b-xml', '/voice/honeypot/vendor-a-xml']) {
      const r = await call(srv, path, { key: srv.key, forward: '+15557654321', webhook: 'http://hooks.example/x' });
      expect(r.status, path).to.equal(200);
      expect(r.body, path).to.not.include('hooks.example');
    }
  });

  it('answers 400 for a Host header that cannot name a socket address', async () => {
    const r = await call(
      srv,
      '/voice/filter/vendor-a-xml',
      { key: srv.key, forward: '+15557654321' },
      { headers: { host: 'evil"host/x' } },
    );
    expect(r.status).to.equal(400);
    expect((JSON.parse(r.body) as { message: string }).message).to.match(/^Host:/);
  });

  it('vendor A honeypot: <Connect><Stream> to the honeypot socket, then <Hangup/>', async () => {
    const persona = srv.services.personas[0]?.id;
    const r = await call(
      srv,
      '/voice/honeypot/vendor-a-xml',
      { key: srv.key, ...(persona ? { persona } : {}), report: 'false' },
      { form: vendorForm },
    );
    expect(r.status).to.equal(200);
    const root = parseXml(r.body);
    expect(root.children.map((c) => c.name)).to.deep.equal(['Connect', 'Hangup']);
    const s = stream(root, 'Connect');
    expect(s.attrs.url).to.equal(`${srv.wsUrl}/voice/honeypot/stream`);
    expect(streamParameters(s)).to.deep.equal({
      key: srv.key,
      from: '+15551230000',
      to: '+15559870000',
      ...(persona ? { persona } : {}),
      report: 'false',
    });
  });

  it('vendor B honeypot: two-way RTP stream in PCMU held by a pause', async () => {
    const r = await call(srv, '/voice/honeypot/vendor-b-xml', { key: srv.key }, { form: vendorForm });
    expect(r.status).to.equal(200);
    const root = parseXml(r.body);
    expect(root.children.map((c) => c.name)).to.deep.equal(['Start', 'Pause', 'Hangup']);
    expect(stream(root, 'Start').attrs).to.include({ bidirectionalMode: 'rtp', bidirectionalCodec: 'PCMU' });
    expect(stream(root, 'Start').attrs.url).to.equal(`${srv.wsUrl}/voice/honeypot/stream?key=${srv.key}`);
  });

  it('honeypot: 400 for an unknown persona', async () => {
    const r = await call(srv, '/voice/honeypot/vendor-a-xml', { key: srv.key, persona: 'no-such-persona' });
    expect(r.status).to.equal(400);
    expect((JSON.parse(r.body) as { message: string }).message).to.match(/^persona:/);
  });
});

describe('vendor-XML entry points: deployment settings', () => {
  it('uses VOICE_PUBLIC_URL for the socket address', async () => {
    const srv = await startTestServer({ VOICE_PUBLIC_URL: 'https://calls.example.org' });
    try {
      const r = await call(srv, '/voice/honeypot/vendor-a-xml', { key: srv.key });
      expect(stream(parseXml(r.body), 'Connect').attrs.url).to.equal('wss://calls.example.org/voice/honeypot/stream');
    } finally {
      await srv.close();
    }
  });

  it('answers 503 when the feature is off', async () => {
    const srv = await startTestServer({ VOICE_FEATURES: 'scan' });
    try {
      expect(
        (await call(srv, '/voice/filter/vendor-a-xml', { key: srv.key, forward: '+15557654321' })).status,
      ).to.equal(503);
      expect((await call(srv, '/voice/honeypot/vendor-b-xml', { key: srv.key })).status).to.equal(503);
    } finally {
      await srv.close();
    }
  });
});
