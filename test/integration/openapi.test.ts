import { expect } from 'chai';
import { OPENAPI } from '../../src/api/openapi.js';
import { allRoutes } from '../../src/server/routes/index.js';
import { VoiceClient } from '../../src/client/index.js';
import { validate } from '../helpers/json-schema.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ESCALATING_SCAM_CALL } from './helpers/live-client.js';

type Doc = Record<string, unknown> & {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }> }>
  >;
};

describe('OpenAPI document', function () {
  this.timeout(30_000);
  let server: TestServer;
  let doc: Doc;

  before(async () => {
    server = await startTestServer();
    const res = await fetch(`${server.url}/voice/openapi.json`);
    expect(res.status).to.equal(200);
    doc = (await res.json()) as Doc;
  });
  after(async () => server.close());

  /** Calls the node and checks the answer against the document's schema for that path, method and status. */
  async function check(
    method: string,
    path: string,
    template: string,
    opts: { key?: string | null; body?: unknown } = {},
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const headers: Record<string, string> = {};
    const key = opts.key === undefined ? server.key : opts.key;
    if (key) headers['X-Auth'] = key;
    if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers,
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    });
    const body = (await res.json()) as Record<string, unknown>;
    const op = doc.paths[template]?.[method.toLowerCase()];
    expect(op, `${method} ${template} documented`).to.not.equal(undefined);
    const response = op!.responses[String(res.status)];
    expect(response, `${method} ${template} documents status ${res.status}`).to.not.equal(undefined);
    const schema = response!.content?.['application/json']?.schema;
    expect(schema, `${method} ${template} ${res.status} has a JSON schema`).to.not.equal(undefined);
    expect(validate(body, schema!, doc as Record<string, unknown>), `${method} ${path} → ${res.status}`).to.deep.equal(
      [],
    );
    return { status: res.status, body };
  }

  it('is OpenAPI 3.1, served without a key, and the served copy is the source', () => {
    expect(doc.openapi).to.equal('3.1.0');
    expect(doc).to.deep.equal(JSON.parse(JSON.stringify(OPENAPI)));
  });

  it('lists every route the node serves, and nothing it does not', () => {
    const served = allRoutes(server.services).map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    const documented = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect([...documented].sort()).to.deep.equal([...new Set(served)].sort());
  });

  it('matches the real answers of the JSON endpoints, successes and errors', async () => {
    await check('GET', '/voice/capabilities', '/voice/capabilities', { key: null });
    await check('GET', '/voice/categories', '/voice/categories');
    await check('GET', '/voice/categories', '/voice/categories', { key: null });
    await check('GET', '/voice/personas', '/voice/personas');

    // A live call, so the sessions carry a full record (call id, numbers, summary …).
    const client = new VoiceClient({ url: server.url, key: server.key });
    const call = await client.openFilter({ call_id: 'doc-1', from: '+12025550123', to: '+12025550999', report: true });
    for (const line of ESCALATING_SCAM_CALL) call.sendText(line);
    call.sendDtmf('7');
    const ended = await call.finish();

    const scan = await check('POST', '/voice/scan', '/voice/scan', {
      body: { transcript: ESCALATING_SCAM_CALL.join('\n'), from: '+12025550177', report: true },
    });
    expect(scan.status).to.equal(200);
    await check('POST', '/voice/scan', '/voice/scan', { body: { transcript: 'hi', report: 'yes' } });
    await check('POST', '/voice/scan', '/voice/scan', { body: { audio_base64: 'UklGRg==' } });

    const list = await check('GET', '/voice/sessions?limit=5', '/voice/sessions');
    expect((list.body.sessions as unknown[]).length).to.equal(2);
    const one = await check('GET', `/voice/sessions/${ended.session_id}`, '/voice/sessions/{id}');
    expect((one.body.intel as Record<string, unknown>).dtmf).to.equal('7');
    await check('GET', `/voice/sessions/${scan.body.session_id as string}`, '/voice/sessions/{id}', {
      key: server.otherKey,
    });

    await check('GET', `/voice/numbers/${encodeURIComponent('+12025550177')}`, '/voice/numbers/{e164}');
    await check('GET', '/voice/numbers/12345', '/voice/numbers/{e164}');
    const feed = await check('GET', '/voice/numbers?reported=true&limit=1', '/voice/numbers');
    expect(feed.body.next_since).to.be.a('string');
    await check('GET', '/voice/numbers?limit=0', '/voice/numbers');

    await check('PUT', '/domains/pbx.example.com', '/domains/{id}', {
      body: { spam_action: 'honeypot', webhook: 'https://hooks.example.com/v' },
    });
    await check('GET', '/domains/pbx.example.com', '/domains/{id}');
    await check('PUT', '/domains/pbx.example.com', '/domains/{id}', { key: server.otherKey, body: {} });
    await check('GET', '/domains/nothing.example.com', '/domains/{id}');
    await check('PUT', '/domains/pbx.example.com', '/domains/{id}', { body: { colour: 'red' } });

    await check('GET', '/console/tuning', '/console/tuning');
    await check('GET', '/voice/filter/vendor-a-xml?forward=not-a-number', '/voice/filter/vendor-a-xml');
  });

  it('serves the non-JSON endpoints with the documented media types', async () => {
    const xml = await fetch(`${server.url}/voice/honeypot/vendor-b-xml?key=${server.key}`, {
      method: 'POST',
      headers: { Host: '127.0.0.1' },
    });
    expect(xml.status).to.equal(200);
    const documented = Object.keys(doc.paths['/voice/honeypot/vendor-b-xml']!.post!.responses['200']!.content!);
    expect(documented).to.include(xml.headers.get('content-type')!.split(';')[0]!);
    const page = await fetch(`${server.url}/console`);
    expect(Object.keys(doc.paths['/console']!.get!.responses['200']!.content!)).to.include(
      page.headers.get('content-type')!.split(';')[0]!,
    );
  });
});
