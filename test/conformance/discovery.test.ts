import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { api, type Json } from './helpers.js';

describe('conformance: discovery', function () {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('GET /capabilities: status success and exactly the capabilities fields with their types', async () => {
    const { status, body } = await api(server.url, 'GET', '/capabilities', { key: server.key });
    expect(status).to.equal(200);
    expect(body.status).to.equal('success');
    const c = body.capabilities as Json;
    expect(Object.keys(c).sort()).to.deep.equal(
      ['scan', 'live_filter', 'honeypot', 'llm', 'analysis_llm', 'stt', 'tts', 'personas', 'prices'].sort(),
    );
    for (const k of ['scan', 'live_filter', 'honeypot']) expect(c[k], k).to.be.a('boolean');
    for (const k of ['llm', 'analysis_llm', 'stt', 'tts']) {
      expect(c[k], k).to.be.a('string');
      // `<provider>:<model>` (a switched-off provider is named `none`)
      if (c[k] !== 'none') expect(c[k], k).to.match(/^[^:\s]+:\S+$/);
    }
    expect(Number.isInteger(c.personas)).to.equal(true);
    expect(c.personas as number).to.be.greaterThan(0);
  });

  it('prices: one credit 0.0039 USD; filter 3, honeypot 8, scan 2, audio minute 1, managed telephony 4', async () => {
    const { body } = await api(server.url, 'GET', '/capabilities', { key: server.key });
    const prices = (body.capabilities as Json).prices as Json;
    expect(prices).to.deep.equal({
      credit_usd: 0.0039,
      filter_per_minute: 3,
      honeypot_per_minute: 8,
      scan: 2,
      scan_audio_minute: 1,
      managed_telephony_per_minute: 4,
    });
    for (const [k, v] of Object.entries(prices)) if (k !== 'credit_usd') expect(Number.isInteger(v), k).to.equal(true);
  });

  it('capabilities follow the deployment features', async () => {
    const off = await startTestServer({ VOICE_FEATURES: 'scan' });
    try {
      const { body } = await api(off.url, 'GET', '/capabilities', { key: off.key });
      expect(body.capabilities).to.include({ scan: true, live_filter: false, honeypot: false });
    } finally {
      await off.close();
    }
  });

  it('GET /categories: JSON list naming every category exactly once, with a description', async () => {
    const { status, body } = await api(server.url, 'GET', '/categories', { key: server.key });
    expect(status).to.equal(200);
    expect(body.status).to.equal('success');
    const text = JSON.stringify(body);
    for (const c of [
      'Advance Fee Loan',
      'Reducing Your Debt (Credit Cards, Mortgage, Student Loans)',
      'Calls pretending to be government, businesses, or family and friends',
      'Other',
    ])
      expect(text).to.include(JSON.stringify(c));
  });

  it('GET /personas: a list whose length is capabilities.personas; each has an id and a name', async () => {
    const caps = await api(server.url, 'GET', '/capabilities', { key: server.key });
    const { status, body } = await api(server.url, 'GET', '/personas', { key: server.key });
    expect(status).to.equal(200);
    expect(body.status).to.equal('success');
    const list = body.personas as Json[];
    expect(list).to.have.length((caps.body.capabilities as Json).personas as number);
    for (const p of list) {
      expect(p.id).to.be.a('string');
      expect(p.name).to.be.a('string');
    }
  });

  it('the key header is case-insensitive (x-auth, X-AUTH)', async () => {
    for (const h of ['x-auth', 'X-AUTH', 'X-Auth']) {
      const r = await api(server.url, 'GET', '/personas', { headers: { [h]: server.key } });
      expect(r.status, h).to.equal(200);
    }
  });
});
