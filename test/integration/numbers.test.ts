import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';

type Json = Record<string, unknown>;

async function get(s: TestServer, path: string, key: string | null = s.key) {
  const res = await fetch(`${s.url}${path}`, { headers: key ? { 'x-auth': key } : {} });
  return { status: res.status, body: (await res.json()) as Json };
}

function expect400(r: { status: number; body: Json }, field: string): void {
  expect(r.status, JSON.stringify(r.body)).to.equal(400);
  expect(r.body.status).to.equal('error');
  expect(String(r.body.message)).to.match(new RegExp(`^${field}\\b`));
}

describe('integration/numbers: lookups and block-list feed', () => {
  let s: TestServer;
  const a = '+15125550401';
  const b = '+15125550402';

  before(async () => {
    s = await startTestServer({ VOICE_LLM: 'none' });
    const keyId = randomUUID();
    const file = (number: string, subject: 'Tax Collection' | 'Utility', at: string) =>
      s.services.store.complaints.file({
        id: randomUUID(),
        number,
        session_id: randomUUID(),
        key_id: keyId,
        subject,
        comment: 'test',
        filed_at: at,
      });
    await file(a, 'Tax Collection', '2026-01-01T10:00:00.000Z');
    await file(a, 'Utility', '2026-01-02T10:00:00.000Z');
    await file(b, 'Utility', '2026-01-03T10:00:00.000Z');
  });
  after(async () => s.close());

  it('looks up a reported number with its complaints, subjects and times', async () => {
    const r = await get(s, `/voice/numbers/${encodeURIComponent(a)}`);
    expect(r.status).to.equal(200);
    expect(r.body).to.include({ status: 'success', number: a, reported: true, complaints: 2 });
    expect(r.body.categories).to.have.members(['Tax Collection', 'Utility']);
    expect(r.body.first_seen).to.equal('2026-01-01T10:00:00.000Z');
    expect(r.body.last_seen).to.equal('2026-01-02T10:00:00.000Z');
  });

  it('answers an unknown number as not reported, without timestamps', async () => {
    const r = await get(s, `/voice/numbers/${encodeURIComponent('+15125550499')}`);
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({
      status: 'success',
      number: '+15125550499',
      reported: false,
      complaints: 0,
      categories: [],
    });
  });

  it('400 names the number when it is not E.164', async () => {
    expect400(await get(s, '/voice/numbers/5125550401'), 'number');
    expect400(await get(s, '/voice/numbers/%2B0123'), 'number');
  });

  it('401 without a key', async () => {
    expect((await get(s, `/voice/numbers/${encodeURIComponent(a)}`, null)).status).to.equal(401);
    expect((await get(s, '/voice/numbers?reported=true', null)).status).to.equal(401);
  });

  it('feeds reported numbers changed after `since`, oldest first, in pages', async () => {
    const all = await get(s, '/voice/numbers?reported=true');
    expect(all.status).to.equal(200);
    expect((all.body.numbers as Json[]).map((n) => n.number)).to.deep.equal([a, b]);

    const page1 = await get(s, '/voice/numbers?reported=true&limit=1');
    expect((page1.body.numbers as Json[]).map((n) => n.number)).to.deep.equal([a]);
    expect(page1.body.next_since).to.equal('2026-01-02T10:00:00.000Z');
    const page2 = await get(
      s,
      `/voice/numbers?reported=true&limit=1&since=${encodeURIComponent(String(page1.body.next_since))}`,
    );
    expect((page2.body.numbers as Json[]).map((n) => n.number)).to.deep.equal([b]);

    const later = await get(s, '/voice/numbers?since=2026-01-02T12:00:00Z');
    expect((later.body.numbers as Json[]).map((n) => n.number)).to.deep.equal([b]);
  });

  it('400 names since, limit or reported when they are bad', async () => {
    expect400(await get(s, '/voice/numbers?since=yesterday'), 'since');
    expect400(await get(s, '/voice/numbers?since=2026-01-01'), 'since');
    expect400(await get(s, '/voice/numbers?limit=0'), 'limit');
    expect400(await get(s, '/voice/numbers?limit=1001'), 'limit');
    expect400(await get(s, '/voice/numbers?limit=ten'), 'limit');
    expect400(await get(s, '/voice/numbers?reported=false'), 'reported');
  });
});
