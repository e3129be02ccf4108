import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { api, checkIntel, checkVerdict, SESSION_FIELDS, UUID, type Json } from './helpers.js';

const SCAM = 'This is the IRS. A warrant will be issued for your arrest unless you pay with gift cards today.';

describe('conformance: sessions endpoints and errors', function () {
  this.timeout(30_000);
  let server: TestServer;
  const ids: string[] = [];
  before(async () => {
    server = await startTestServer();
    for (let i = 0; i < 3; i++) {
      const r = await api(server.url, 'POST', '/scan', {
        key: server.key,
        body: { transcript: SCAM, from: `+1202555017${i}`, to: '+12025550100' },
      });
      ids.push(r.body.session_id as string);
    }
  });
  after(() => server.close());
  const list = (q: string, key = server.key) => api(server.url, 'GET', `/sessions${q}`, { headers: { 'x-auth': key } });

  it('GET /sessions/{id}: status, session (session-record fields only), verdict (source stored), intel', async () => {
    const r = await api(server.url, 'GET', `/sessions/${ids[0]!}`, { headers: { 'x-auth': server.key } });
    expect(r.status).to.equal(200);
    expect(Object.keys(r.body).sort()).to.deep.equal(['intel', 'session', 'status', 'verdict']);
    expect(r.body.status).to.equal('success');
    const s = r.body.session as Json;
    for (const k of Object.keys(s)) expect(SESSION_FIELDS, `unknown session field ${k}`).to.include(k);
    expect(s.id).to.equal(ids[0]).and.match(UUID);
    expect(s).to.include({ kind: 'scan', protocol: 'http', from: '+12025550170', to: '+12025550100', reported: false });
    for (const k of ['started_at', 'ended_at'])
      expect(new Date(s[k] as string).toString()).not.to.equal('Invalid Date');
    for (const k of ['duration_seconds', 'turns', 'intel_count']) expect(Number.isInteger(s[k]), k).to.equal(true);
    expect(s.transcript)
      .to.be.a('string')
      .and.match(/^[^:\n]+: /);
    expect(s.score).to.be.a('number');
    expect(s.level).to.equal('scam');
    expect(s.category).to.be.a('string');
    const v = checkVerdict(r.body.verdict);
    expect(v.source).to.equal('stored');
    expect(v).to.include({ score: s.score, level: s.level, category: s.category });
    if (s.summary !== undefined) expect(v.summary).to.equal(s.summary);
    checkIntel(r.body.intel);
  });

  it("404 for an unknown id and for another key's session, with status error and a message", async () => {
    for (const r of [
      await api(server.url, 'GET', `/sessions/00000000-0000-4000-8000-000000000000`, { key: server.key }),
      await api(server.url, 'GET', `/sessions/${ids[0]!}`, { key: server.otherKey }),
    ]) {
      expect(r.status).to.equal(404);
      expect(r.body.status).to.equal('error');
      expect(r.body.message).to.be.a('string').and.not.equal('');
    }
  });

  it('401 for a missing or wrong key on the sessions endpoints', async () => {
    for (const r of [
      await api(server.url, 'GET', `/sessions/${ids[0]!}`),
      await api(server.url, 'GET', `/sessions`, { key: 'wrong-key-123' }),
      await api(server.url, 'GET', `/sessions`),
    ]) {
      expect(r.status).to.equal(401);
      expect(r.body.status).to.equal('error');
      expect(r.body.message).to.be.a('string');
    }
  });

  it("GET /sessions lists only the calling key's sessions", async () => {
    const mine = await list('');
    expect(mine.status).to.equal(200);
    expect(mine.body.status).to.equal('success');
    expect(JSON.stringify(mine.body)).to.include(ids[2]!);
    for (const rec of mine.body.sessions as Json[])
      for (const k of Object.keys(rec)) expect(SESSION_FIELDS, `unknown session field ${k}`).to.include(k);
    const theirs = await list('', server.otherKey);
    for (const id of ids) expect(JSON.stringify(theirs.body)).not.to.include(id);
  });

  it('limit 1 to 200 is honoured; any other value becomes 50', async () => {
    const count = (b: Json) => ids.filter((id) => JSON.stringify(b).includes(id)).length;
    expect(count((await list('?limit=1')).body)).to.equal(1);
    expect(count((await list('?limit=2')).body)).to.equal(2);
    expect(count((await list('?limit=200')).body)).to.equal(3);
    for (const bad of ['0', '-1', '201', 'abc', '1.5', '']) {
      const r = await list(`?limit=${bad}`);
      expect(r.status, bad).to.equal(200);
      expect(count(r.body), bad).to.equal(3);
    }
  });

  it('the default of 50 is applied to out-of-range values (55 sessions stored)', async function () {
    const many = await startTestServer();
    try {
      for (let i = 0; i < 55; i += 11)
        await Promise.all(
          Array.from({ length: 11 }, () =>
            api(many.url, 'POST', '/scan', { key: many.key, body: { transcript: 'See you at lunch tomorrow.' } }),
          ),
        );
      const n = async (q: string) => {
        const r = await api(many.url, 'GET', `/sessions${q}`, { key: many.key });
        return (r.body.sessions as unknown[]).length;
      };
      expect(await n('')).to.equal(50);
      expect(await n('?limit=55')).to.equal(55);
      expect(await n('?limit=200')).to.equal(55);
      for (const bad of ['0', '201', '1000', 'x', '-5', '7.5']) expect(await n(`?limit=${bad}`), bad).to.equal(50);
      expect(await n('?limit=7')).to.equal(7);
    } finally {
      await many.close();
    }
  });

  it('a lower-case x-auth and an upper-case X-AUTH header both authenticate', async () => {
    expect((await api(server.url, 'GET', '/sessions', { headers: { 'x-auth': server.key } })).status).to.equal(200);
    expect((await api(server.url, 'GET', '/sessions', { headers: { 'X-AUTH': server.key } })).status).to.equal(200);
  });

  it('a body that is not JSON is a 400 with status error', async () => {
    const r = await api(server.url, 'POST', '/scan', { key: server.key, raw: '{oops' });
    expect(r.status).to.equal(400);
    expect(r.body.status).to.equal('error');
    expect(r.body.message).to.be.a('string');
  });

  it('PUT {api_root}/domains/{id}: spam_action honeypot is accepted; a bad value is a 400 naming it; 401 without key', async () => {
    const put = (id: string, body: unknown, key?: string) =>
      fetch(`${server.url}/domains/${id}`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', ...(key ? { 'X-Auth': key } : {}) },
        body: JSON.stringify(body),
      });
    const ok = await put('pbx.example.com', { spam_action: 'honeypot' }, server.key);
    expect(ok.status).to.equal(200);
    const okBody = (await ok.json()) as Json;
    expect(okBody.status).to.equal('success');
    expect(JSON.stringify(okBody)).to.include('"spam_action":"honeypot"');
    const bad = await put('pbx.example.com', { spam_action: 'explode' }, server.key);
    expect(bad.status).to.equal(400);
    expect(((await bad.json()) as Json).message).to.include('spam_action');
    expect((await put('pbx.example.com', { spam_action: 'honeypot' })).status).to.equal(401);
  });

  it('vendor-XML entry points: key and forward are required', async () => {
    for (const vendor of ['vendor-a', 'vendor-b']) {
      const base = `${server.url}/voice/filter/${vendor}-xml`;
      const noKey = await fetch(`${base}?forward=%2B12025550111`, { method: 'POST' });
      expect(noKey.status, `${vendor} no key`).to.equal(401);
      const noForward = await fetch(`${base}?key=${server.key}`, { method: 'POST' });
      expect(noForward.status, `${vendor} no forward`).to.equal(400);
      expect(await noForward.text()).to.include('forward');
      const badForward = await fetch(`${base}?key=${server.key}&forward=12345`, { method: 'POST' });
      expect(badForward.status).to.equal(400);
      const good = await fetch(`${base}?key=${server.key}&forward=%2B12025550111`, { method: 'POST' });
      expect(good.status).to.equal(200);
      const xml = await good.text();
      expect(xml).to.include('+12025550111');
      expect(xml).to.include('/voice/filter/stream');
    }
    for (const vendor of ['vendor-a', 'vendor-b']) {
      const base = `${server.url}/voice/honeypot/${vendor}-xml`;
      expect((await fetch(base, { method: 'POST' })).status, `${vendor} honeypot no key`).to.equal(401);
      const good = await fetch(`${base}?key=${server.key}`, { method: 'POST' });
      expect(good.status).to.equal(200);
      expect(await good.text()).to.include('/voice/honeypot/stream');
    }
  });
});
