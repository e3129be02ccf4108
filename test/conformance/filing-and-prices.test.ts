import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { api, open, say, send, type Json } from './helpers.js';

const SCAM =
  'This is the IRS. You owe back taxes and a warrant will be issued for your arrest today unless you pay with gift ' +
  'cards. Call us back at 866 555 0142. Do not tell anyone.';
const CLEAN = 'Hi, this is the dentist office confirming your cleaning on Tuesday at ten. See you then.';

describe('conformance: filing and prices', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      VOICE_BOOTSTRAP_KEYS:
        'main_key_0001:1000000,two_credit:2,free_check:2,three_credit:3,five_credit:5,six_credit:6,seven_credit:7,eight_credit:8',
    });
  });
  after(() => server.close());

  const lookup = async (n: string) =>
    (await api(server.url, 'GET', `/numbers/${encodeURIComponent(n)}`, { key: 'main_key_0001' })).body;

  it('a filed scan makes the caller and the callback number reported, with the category as subject', async () => {
    const r = await api(server.url, 'POST', '/scan', {
      key: 'main_key_0001',
      body: { transcript: SCAM, from: '+12025550190', report: true },
    });
    expect(r.body).to.include({ reported: true, reported_numbers: 2 });
    const category = (r.body.verdict as Json).category;
    for (const n of ['+12025550190', '+18665550142']) {
      const got = await lookup(n);
      expect(got, n).to.include({ reported: true, complaints: 1 });
      expect(got.categories).to.deep.equal([category]);
    }
  });

  it('a clean call with report=true files nothing (category none is never filed)', async () => {
    const r = await api(server.url, 'POST', '/scan', {
      key: 'main_key_0001',
      body: { transcript: CLEAN, from: '+12025550191', report: true },
    });
    expect(r.body).to.include({ reported: false, reported_numbers: 0 });
    expect(await lookup('+12025550191')).to.include({ reported: false, complaints: 0 });
  });

  it('a scam without report files nothing', async () => {
    await api(server.url, 'POST', '/scan', { key: 'main_key_0001', body: { transcript: SCAM, from: '+12025550192' } });
    expect(await lookup('+12025550192')).to.include({ reported: false });
  });

  it('GET /sessions/{id} is free: it answers with a zero balance', async () => {
    const r = await api(server.url, 'POST', '/scan', { key: 'free_check', body: { transcript: CLEAN } });
    expect(r.status).to.equal(200);
    const again = await api(server.url, 'POST', '/scan', { key: 'free_check', body: { transcript: CLEAN } });
    expect(again.status).to.equal(402);
    const got = await api(server.url, 'GET', `/sessions/${r.body.session_id as string}`, { key: 'free_check' });
    expect(got.status).to.equal(200);
    expect((await api(server.url, 'GET', '/sessions', { key: 'free_check' })).status).to.equal(200);
  });

  async function startWith(path: string, key: string, q = ''): Promise<string> {
    const s = open(`${server.wsUrl}/voice/${path}?key=${key}${q}`);
    try {
      await s.opened;
    } catch (e) {
      return (e as Error).message;
    }
    send(s, { type: 'start', encoding: 'mulaw' });
    say(s, 'Hello.');
    send(s, { type: 'stop' });
    await s.closed;
    return s.events.map((e) => e.type).join(',');
  }

  it('filter: 3 credits per started minute, charged at the start', async () => {
    expect(await startWith('filter/stream', 'two_credit')).to.match(/refused 402/);
    expect(await startWith('filter/stream', 'three_credit')).to.match(/^session\.started,.*session\.ended$/);
    expect(await startWith('filter/stream', 'three_credit')).to.match(/refused 402/);
  });

  it('filter with tracks=both: transcription cost doubles (6 credits a minute)', async () => {
    expect(await startWith('filter/stream', 'five_credit', '&tracks=both')).to.match(/refused 402/);
    expect(await startWith('filter/stream', 'six_credit', '&tracks=both')).to.match(/session\.ended$/);
  });

  it('honeypot: 8 credits per started minute', async () => {
    expect(await startWith('honeypot/stream', 'seven_credit')).to.match(/refused 402/);
    expect(await startWith('honeypot/stream', 'eight_credit')).to.match(/session\.ended$/);
  });
});
