import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { CATEGORIES } from '../../src/domain/categories.js';
import { PRICES } from '../../src/domain/prices.js';
import type { StoredSession } from '../../src/domain/session.js';
import { hashKey } from '../../src/server/auth.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

type Json = Record<string, unknown>;

async function get(
  s: TestServer,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json; res: Response }> {
  const res = await fetch(`${s.url}${path}`, { headers });
  return { status: res.status, body: (await res.json()) as Json, res };
}

function expectError(r: { status: number; body: Json }, status: number, message?: RegExp): void {
  expect(r.status).to.equal(status);
  expect(r.body.status).to.equal('error');
  expect(r.body.message).to.be.a('string').and.not.equal('');
  if (message) expect(r.body.message).to.match(message);
}

function session(keyId: string, startedAt: string, extra: Partial<StoredSession> = {}): StoredSession {
  return {
    id: randomUUID(),
    kind: 'filter',
    protocol: 'raw',
    call_id: 'call-1',
    from: '+15551230000',
    started_at: startedAt,
    ended_at: startedAt,
    duration_seconds: 42,
    turns: 2,
    transcript: 'caller: this is the tax office\ncallee: ok',
    score: 0.91,
    level: 'scam',
    category: 'Tax Collection',
    summary: 'Caller posed as the tax office.',
    intel_count: 1,
    reported: true,
    key_id: keyId,
    state: 'ended',
    node_id: 'n1',
    tactics: ['authority_impersonation', 'threat'],
    signals: ['this is the tax office'],
    intel: { callback_numbers: ['+15559870000'] },
    reported_numbers: 2,
    ...extra,
  };
}

describe('integration/http: discovery, auth, sessions', () => {
  let s: TestServer;
  let keyId: string;
  let otherKeyId: string;

  before(async () => {
    s = await startTestServer();
    keyId = (await s.services.store.keys.findByHash(hashKey(s.key)))!.id;
    otherKeyId = (await s.services.store.keys.findByHash(hashKey(s.otherKey)))!.id;
  });
  after(async () => s?.close());

  describe('auth', () => {
    it('accepts the key in X-Auth', async () => {
      const r = await get(s, '/voice/personas', { 'X-Auth': s.key });
      expect(r.status).to.equal(200);
      expect(r.body.status).to.equal('success');
    });

    it('treats the header name case-insensitively', async () => {
      expect((await get(s, '/voice/personas', { 'x-AUTH': s.key })).status).to.equal(200);
      expect((await get(s, '/voice/sessions', { 'x-auth': s.key })).status).to.equal(200);
    });

    it('refuses a missing key with 401 in the error shape', async () => {
      expectError(await get(s, '/voice/personas'), 401, /missing/);
    });

    it('refuses a wrong key with 401', async () => {
      expectError(await get(s, '/voice/sessions', { 'X-Auth': `${s.key}x` }), 401, /wrong/);
    });

    it('does not take the key from the query on plain HTTP routes', async () => {
      expectError(await get(s, `/voice/sessions?key=${s.key}`), 401);
    });

    it('never writes a key to the logs', async () => {
      await get(s, `/voice/sessions?key=${s.key}`, { 'X-Auth': s.otherKey });
      await get(s, `/voice/nothing?key=${s.key}`);
      await get(s, '/voice/personas', { 'X-Auth': 'wrong-key-value-123' });
      const text = s.logText();
      expect(s.logs.some((l) => l.msg === 'http')).to.equal(true);
      expect(text).not.to.include(s.key);
      expect(text).not.to.include(s.otherKey);
      expect(text).not.to.include('wrong-key-value-123');
      expect(text).not.to.include(hashKey(s.key));
    });

    it('gives every request its own id, in the response and the log line', async () => {
      const a = await get(s, '/voice/capabilities');
      const b = await get(s, '/voice/capabilities');
      const ida = a.res.headers.get('x-request-id');
      expect(ida).to.match(/^[0-9a-f-]{36}$/);
      expect(ida).not.to.equal(b.res.headers.get('x-request-id'));
      expect(s.logs.some((l) => l.req === ida && l.status === 200 && l.path === '/voice/capabilities')).to.equal(true);
    });

    it('keeps a well-formed incoming X-Request-Id, in the response and the log line, and replaces a malformed one', async () => {
      for (const id of ['lb-7f3a9c2e41d0', 'Root=1-67891233-abcdef012345678912345678', 'a'.repeat(128)]) {
        const { res } = await get(s, '/voice/capabilities', { 'X-Request-Id': id });
        expect(res.headers.get('x-request-id')).to.equal(id);
        expect(s.logs.some((l) => l.req === id && l.status === 200)).to.equal(true);
      }
      // On errors too: the id is the caller's handle on what went wrong.
      const denied = await get(s, '/voice/personas', { 'X-Request-Id': 'trace-401' });
      expect(denied.res.status).to.equal(401);
      expect(denied.res.headers.get('x-request-id')).to.equal('trace-401');
      for (const bad of ['a'.repeat(129), 'two words', 'x"y', 'a,b', 'semi;colon', 'tab\there', 'é']) {
        const { res } = await get(s, '/voice/capabilities', { 'X-Request-Id': bad });
        const id = res.headers.get('x-request-id');
        expect(id, JSON.stringify(bad)).to.match(/^[0-9a-f-]{36}$/);
        expect(s.logText()).not.to.include(bad);
      }
    });
  });

  describe('GET /voice/capabilities', () => {
    it('needs no key and has exactly the documented shape', async () => {
      const r = await get(s, '/voice/capabilities');
      expect(r.status).to.equal(200);
      expect(Object.keys(r.body).sort()).to.deep.equal(['capabilities', 'status']);
      expect(r.body.status).to.equal('success');
      const c = r.body.capabilities as Json;
      expect(Object.keys(c).sort()).to.deep.equal(
        ['analysis_llm', 'honeypot', 'live_filter', 'llm', 'personas', 'prices', 'scan', 'stt', 'tts'].sort(),
      );
      for (const k of ['scan', 'live_filter', 'honeypot']) expect(c[k], k).to.be.a('boolean');
      for (const k of ['llm', 'analysis_llm', 'stt', 'tts']) {
        expect(c[k], k).to.be.a('string');
        expect(c[k] === 'none' || /^[^:]+:.+$/.test(c[k] as string), `${k}=${String(c[k])}`).to.equal(true);
      }
      expect(c.personas).to.equal(s.services.personas.length);
      expect(c.prices).to.deep.equal({ credit_usd: 0.0039, ...PRICES });
      expect(c.stt).to.equal('none'); // VOICE_STT=none in tests
    });

    it('reports the features of VOICE_FEATURES', async () => {
      const t = await startTestServer({ VOICE_FEATURES: 'scan' });
      try {
        const c = (await get(t, '/voice/capabilities')).body.capabilities as Json;
        expect([c.scan, c.live_filter, c.honeypot]).to.deep.equal([true, false, false]);
      } finally {
        await t.close();
      }
    });
  });

  describe('GET /voice/categories', () => {
    it('lists all 34 categories with descriptions and the disambiguation notes', async () => {
      const r = await get(s, '/voice/categories', { 'X-Auth': s.key });
      expect(r.status).to.equal(200);
      const cats = r.body.categories as Array<{ name: string; description: string }>;
      expect(cats).to.have.length(34);
      expect(cats.map((c) => c.name)).to.deep.equal([...CATEGORIES]);
      for (const c of cats) expect(c.description, c.name).to.be.a('string').with.length.above(10);
      const notes = (r.body.notes as string[]).join(' ');
      expect(notes).to.include('Advance Fee Loan');
      expect(notes).to.include('Tax Collection');
    });
  });

  describe('GET /voice/personas', () => {
    it('lists id, name, voice, language and description, never the backstory', async () => {
      const r = await get(s, '/voice/personas', { 'X-Auth': s.key });
      const personas = r.body.personas as Json[];
      expect(personas).to.have.length(s.services.personas.length).and.length.above(0);
      for (const p of personas) {
        expect(Object.keys(p).sort()).to.deep.equal(['description', 'id', 'language', 'name', 'voice']);
      }
      const raw = JSON.stringify(r.body);
      for (const p of s.services.personas) expect(raw).not.to.include(p.backstory);
    });
  });

  describe('GET /voice/sessions', () => {
    let ids: string[] = [];

    before(async () => {
      ids = [];
      const base = Date.parse('2026-01-01T00:00:00Z');
      // 230 sessions for the key, one for the other key, stored out of order.
      const order = Array.from({ length: 230 }, (_, i) => (i * 7) % 230);
      for (const i of order) {
        const rec = session(keyId, new Date(base + i * 60_000).toISOString(), {
          id: `s-${String(i).padStart(3, '0')}`,
        });
        await s.services.store.sessions.put(rec);
      }
      await s.services.store.sessions.put(
        session(otherKeyId, new Date(base + 999 * 60_000).toISOString(), { id: 'other-1' }),
      );
      ids = Array.from({ length: 230 }, (_, i) => `s-${String(229 - i).padStart(3, '0')}`);
    });

    async function list(query: string): Promise<Json[]> {
      const r = await get(s, `/voice/sessions${query}`, { 'X-Auth': s.key });
      expect(r.status).to.equal(200);
      expect(Object.keys(r.body).sort()).to.deep.equal(['sessions', 'status']);
      return r.body.sessions as Json[];
    }

    it("returns the key's sessions newest first, 50 by default", async () => {
      const rows = await list('');
      expect(rows.map((r) => r.id)).to.deep.equal(ids.slice(0, 50));
    });

    it('takes a limit of 1 to 200 and turns anything else into 50', async () => {
      expect(await list('?limit=1')).to.have.length(1);
      expect(await list('?limit=200')).to.have.length(200);
      expect(await list('?limit=0')).to.have.length(50);
      expect(await list('?limit=201')).to.have.length(50);
      expect(await list('?limit=abc')).to.have.length(50);
      expect(await list('?limit=-5')).to.have.length(50);
      expect(await list('?limit=2.5')).to.have.length(50);
    });

    it('shows public records only', async () => {
      const [row] = await list('?limit=1');
      for (const k of ['key_id', 'state', 'node_id', 'tactics', 'signals', 'intel', 'reported_numbers']) {
        expect(row, k).not.to.have.property(k);
      }
      expect(row).to.include({
        kind: 'filter',
        protocol: 'raw',
        level: 'scam',
        category: 'Tax Collection',
        reported: true,
      });
    });

    it("never lists another key's sessions", async () => {
      const r = await get(s, '/voice/sessions?limit=200', { 'X-Auth': s.otherKey });
      expect((r.body.sessions as Json[]).map((x) => x.id)).to.deep.equal(['other-1']);
    });
  });

  describe('GET /voice/sessions/{id}', () => {
    it('returns the record, the stored verdict and the intel', async () => {
      const rec = session(keyId, '2026-02-01T00:00:00.000Z', { id: randomUUID() });
      await s.services.store.sessions.put(rec);
      const r = await get(s, `/voice/sessions/${rec.id}`, { 'X-Auth': s.key });
      expect(r.status).to.equal(200);
      expect(Object.keys(r.body).sort()).to.deep.equal(['intel', 'session', 'status', 'verdict']);
      expect((r.body.session as Json).id).to.equal(rec.id);
      expect(r.body.session).not.to.have.property('key_id');
      expect(r.body.verdict).to.deep.equal({
        score: 0.91,
        level: 'scam',
        category: 'Tax Collection',
        tactics: ['authority_impersonation', 'threat'],
        signals: ['this is the tax office'],
        summary: 'Caller posed as the tax office.',
        source: 'stored',
      });
      expect(r.body.intel).to.deep.equal({ callback_numbers: ['+15559870000'] });
    });

    it('answers 404 for an unknown id', async () => {
      expectError(await get(s, `/voice/sessions/${randomUUID()}`, { 'X-Auth': s.key }), 404, /not found/);
    });

    it("answers 404, never 403, for another key's session", async () => {
      const r = await get(s, '/voice/sessions/other-1', { 'X-Auth': s.key });
      expectError(r, 404, /not found/);
      const own = await get(s, '/voice/sessions/other-1', { 'X-Auth': s.otherKey });
      expect(own.status).to.equal(200);
    });

    it('asks for the key before anything else', async () => {
      expectError(await get(s, '/voice/sessions/other-1'), 401);
    });
  });

  describe('DELETE /voice/sessions/{id}', () => {
    const del = async (path: string, key?: string) => {
      const res = await fetch(`${s.url}${path}`, { method: 'DELETE', headers: key ? { 'X-Auth': key } : {} });
      return { status: res.status, body: (await res.json()) as Json };
    };

    it('deletes an ended session of the calling key: it is gone from reads and lists', async () => {
      const rec = session(keyId, '2026-02-02T00:00:00.000Z', { id: randomUUID() });
      await s.services.store.sessions.put(rec);
      const r = await del(`/voice/sessions/${rec.id}`, s.key);
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal({ status: 'success', deleted: rec.id });
      expectError(await get(s, `/voice/sessions/${rec.id}`, { 'X-Auth': s.key }), 404, /not found/);
      const listed = await get(s, '/voice/sessions?limit=200', { 'X-Auth': s.key });
      expect((listed.body.sessions as Json[]).map((x) => x.id)).not.to.include(rec.id);
      expectError(await del(`/voice/sessions/${rec.id}`, s.key), 404, /not found/);
    });

    it("answers 404 for another key's session and leaves it, 401 without a key, 409 while it is live", async () => {
      expectError(await del('/voice/sessions/other-1', s.key), 404, /not found/);
      expect((await get(s, '/voice/sessions/other-1', { 'X-Auth': s.otherKey })).status).to.equal(200);
      expectError(await del('/voice/sessions/other-1'), 401);
      const live = session(keyId, '2026-02-03T00:00:00.000Z', { id: randomUUID(), state: 'open' });
      await s.services.store.sessions.put(live);
      expectError(await del(`/voice/sessions/${live.id}`, s.key), 409, /live/);
      expect((await get(s, `/voice/sessions/${live.id}`, { 'X-Auth': s.key })).status).to.equal(200);
    });
  });

  describe('unknown routes', () => {
    it('answers 404 in the error shape', async () => {
      expectError(await get(s, '/voice/nope'), 404, /GET \/voice\/nope/);
      expectError(await get(s, '/'), 404);
    });

    it('answers 405 with Allow for a known path and a wrong method', async () => {
      const res = await fetch(`${s.url}/voice/capabilities`, { method: 'DELETE' });
      expect(res.status).to.equal(405);
      expect(res.headers.get('allow')).to.equal('GET');
      expect(((await res.json()) as Json).status).to.equal('error');
    });
  });
});
