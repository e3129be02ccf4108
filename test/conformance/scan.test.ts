import { expect } from 'chai';
import http from 'node:http';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { api, checkIntel, checkVerdict, UUID, type Json } from './helpers.js';

const SCAM =
  'This is the IRS. You owe back taxes and a warrant will be issued for your arrest today unless you pay with gift ' +
  'cards. Call us back at 866 555 0142. Do not tell anyone.';
const CLEAN = 'Hi, this is the dentist office confirming your cleaning on Tuesday at ten. See you then.';

/** A mono 16-bit PCM WAV of silence. */
function wav(seconds: number, rate = 8000): Buffer {
  const data = Buffer.alloc(Math.round(seconds * rate) * 2);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVE', 8);
  h.write('fmt ', 12);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

describe('conformance: POST /scan', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());
  const scan = (body: unknown, key = server.key) => api(server.url, 'POST', '/scan', { key, body });

  it('200 with exactly status, session_id, verdict, intel, transcript, reported, reported_numbers', async () => {
    const { status, body } = await scan({ transcript: SCAM });
    expect(status).to.equal(200);
    expect(Object.keys(body).sort()).to.deep.equal(
      ['status', 'session_id', 'verdict', 'intel', 'transcript', 'reported', 'reported_numbers'].sort(),
    );
    expect(body.status).to.equal('success');
    expect(body.session_id).to.be.a('string').and.match(UUID);
    const v = checkVerdict(body.verdict);
    expect(v.level).to.equal('scam');
    expect(v.category).to.equal('Tax Collection');
    const intel = checkIntel(body.intel);
    expect(intel.callback_numbers).to.deep.equal(['+18665550142']);
    expect(body.transcript).to.be.a('string');
    expect(body).to.include({ reported: false, reported_numbers: 0 });
  });

  it('intel holds distinct facts and the stored intel_count counts them', async () => {
    const { body } = await scan({ transcript: SCAM });
    const intel = checkIntel(body.intel);
    let facts = 0;
    for (const [k, v] of Object.entries(intel)) {
      if (k === 'dtmf') {
        facts += 1;
        continue;
      }
      const keys = (v as string[]).map((x) =>
        x
          .toLowerCase()
          .replace(/\s+/g, ' ')
          .replace(/[\s.,;:!?]+$/, ''),
      );
      expect(new Set(keys).size, `${k} without repeats: ${JSON.stringify(v)}`).to.equal(keys.length);
      facts += keys.length;
    }
    const got = await api(server.url, 'GET', `/sessions/${body.session_id as string}`, { key: server.key });
    expect((got.body.session as Json).intel_count).to.equal(facts);
  });

  it('a clean transcript: category none, level clean, intel may be empty ({})', async () => {
    const { status, body } = await scan({ transcript: CLEAN });
    expect(status).to.equal(200);
    const v = checkVerdict(body.verdict);
    expect(v).to.include({ level: 'clean', category: 'none' });
    checkIntel(body.intel);
  });

  it('signals of a verdict above 0.6 quote the caller', async () => {
    const { body } = await scan({ transcript: SCAM });
    const v = body.verdict as Json;
    expect(v.score as number).to.be.above(0.6);
    const words = SCAM.toLowerCase();
    for (const sig of v.signals as string[]) {
      const quoted = /"([^"]+)"/.exec(sig)?.[1];
      expect(quoted, `signal quotes the caller: ${sig}`).to.be.a('string');
      expect(words).to.include(quoted!.toLowerCase().replace(/[.!?]$/, ''));
    }
  });

  it('the scan is stored as a session of the calling key (kind scan, protocol http)', async () => {
    const { body } = await scan({ transcript: SCAM, from: '+12025550101', to: '+12025550102' });
    const got = await api(server.url, 'GET', `/sessions/${body.session_id as string}`, { key: server.key });
    expect(got.status).to.equal(200);
    expect(got.body.session).to.include({ kind: 'scan', protocol: 'http', from: '+12025550101', to: '+12025550102' });
    const other = await api(server.url, 'GET', `/sessions/${body.session_id as string}`, { key: server.otherKey });
    expect(other.status).to.equal(404);
  });

  it('report=true files the caller and each callback number when the score is scam', async () => {
    const { body } = await scan({ transcript: SCAM, from: '+12025550177', report: true });
    expect(body).to.include({ reported: true, reported_numbers: 2 });
  });

  it('report=true never files a clean call', async () => {
    const { body } = await scan({ transcript: CLEAN, from: '+12025550178', report: true });
    expect(body).to.include({ reported: false, reported_numbers: 0 });
  });

  it('report defaults to false', async () => {
    const { body } = await scan({ transcript: SCAM, from: '+12025550179' });
    expect(body).to.include({ reported: false, reported_numbers: 0 });
  });

  describe('400 names the field', function () {
    const cases: Array<[string, Json, string]> = [
      ['no transcript nor audio', {}, 'transcript'],
      ['transcript not a string', { transcript: 5 }, 'transcript'],
      ['unknown encoding', { transcript: 'hello', encoding: 'flac' }, 'encoding'],
      ['pcm16 without sample_rate', { audio_base64: 'AAAAAAAA', encoding: 'pcm16' }, 'sample_rate'],
      ['sample_rate out of range', { audio_base64: 'AAAAAAAA', encoding: 'pcm16', sample_rate: 4000 }, 'sample_rate'],
      ['from not E.164', { transcript: 'hello', from: '2025550123' }, 'from'],
      ['to not E.164', { transcript: 'hello', to: 'abc' }, 'to'],
      ['report not a boolean', { transcript: 'hello', report: 'yes' }, 'report'],
      // "`from` … Required for `report`."
      ['report without from', { transcript: SCAM, report: true }, 'from'],
      ['audio_base64 not base64', { audio_base64: '***' }, 'audio_base64'],
    ];
    for (const [name, body, field] of cases) {
      it(`${name} → 400 naming ${field}`, async () => {
        const r = await scan(body);
        expect(r.status, JSON.stringify(r.body)).to.equal(400);
        expect(r.body.status).to.equal('error');
        expect(r.body.message).to.be.a('string').and.include(field);
      });
    }
  });

  it('401 without a key or with a wrong key', async () => {
    const none = await api(server.url, 'POST', '/scan', { body: { transcript: SCAM } });
    const wrong = await scan({ transcript: SCAM }, 'nope');
    for (const r of [none, wrong]) {
      expect(r.status).to.equal(401);
      expect(r.body.status).to.equal('error');
      expect(r.body.message).to.be.a('string');
    }
  });

  it('502 when transcription fails (no recogniser on the deployment), and nothing is charged', async () => {
    const r = await scan({ audio_base64: wav(1).toString('base64') });
    expect(r.status).to.equal(502);
    expect(r.body.status).to.equal('error');
    expect(r.body.message).to.be.a('string');
  });

  describe('prices and 402', function () {
    let priced: TestServer;
    before(async () => {
      priced = await startTestServer({
        VOICE_STT: 'replay',
        VOICE_BOOTSTRAP_KEYS: 'two_credits:2,five_credits:5,four_credits:4',
      });
    });
    after(() => priced.close());
    const scanAs = (key: string, body: unknown) => api(priced.url, 'POST', '/scan', { key, body });

    it('a transcript costs 2 credits per request; then 402 with status error', async () => {
      expect((await scanAs('two_credits', { transcript: CLEAN })).status).to.equal(200);
      const r = await scanAs('two_credits', { transcript: CLEAN });
      expect(r.status).to.equal(402);
      expect(r.body.status).to.equal('error');
      expect(r.body.message).to.be.a('string');
    });

    it('audio costs 2 plus 1 per started minute (61 s = 4 credits; encoding defaults to wav)', async () => {
      const r = await scanAs('five_credits', { audio_base64: wav(61).toString('base64') });
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      // 1 credit left: even a transcript (2) no longer fits.
      expect((await scanAs('five_credits', { transcript: CLEAN })).status).to.equal(402);
    });

    it('audio of one started minute over the balance is 402', async () => {
      // 121 s = 2 + 3 = 5 credits > 4
      const r = await scanAs('four_credits', { audio_base64: wav(121).toString('base64') });
      expect(r.status).to.equal(402);
      expect((await scanAs('four_credits', { audio_base64: wav(60).toString('base64') })).status).to.equal(200);
    });

    it('mulaw defaults to 8000 Hz (8000 bytes = one second)', async () => {
      const r = await scanAs('four_credits', {
        audio_base64: Buffer.alloc(8000, 0xff).toString('base64'),
        encoding: 'mulaw',
      });
      // one second of audio = 3 credits > 1 left
      expect(r.status).to.equal(402);
    });
  });

  it('a body over 25 MB is refused with status error', async () => {
    const big = JSON.stringify({ transcript: 'a'.repeat(25 * 1024 * 1024 + 10) });
    const r = await api(server.url, 'POST', '/scan', { key: server.key, raw: big });
    expect(r.status).to.be.within(400, 499);
    expect(r.body.status).to.equal('error');
  });

  it('the 25 MB body limit is 25 000 000 bytes: one byte more is 413 naming the limit, the limit itself is read', async () => {
    // The filler keeps the body valid JSON of an exact size; `transcript: 5` makes it a quick 400 once read.
    const sized = (n: number) => {
      const head = '{"transcript":5,"pad":"';
      return `${head}${'a'.repeat(n - head.length - 2)}"}`;
    };
    const over = await postSized(sized(25_000_001));
    expect(over.status).to.equal(413);
    expect(JSON.parse(over.text)).to.deep.equal({
      status: 'error',
      message: 'body: larger than the limit of 25000000 bytes',
    });
    const at = await postSized(sized(25_000_000));
    expect(at.status).to.equal(400);
    expect((JSON.parse(at.text) as Json).message).to.match(/^transcript:/);
  });

  /** Sends the headers, and the body only if no early answer (413 from Content-Length) came first. */
  function postSized(body: string): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: new URL(server.url).port,
          path: '/voice/scan',
          method: 'POST',
          headers: {
            'x-auth': server.key,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          answered = true;
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      let answered = false;
      req.on('error', (e) => (answered ? undefined : reject(e)));
      req.flushHeaders();
      setTimeout(() => (answered ? req.destroy() : req.end(body)), 300);
    });
  }

  it('503 when scan is off on the deployment', async () => {
    const off = await startTestServer({ VOICE_FEATURES: 'live_filter,honeypot' });
    try {
      const r = await api(off.url, 'POST', '/scan', { key: off.key, body: { transcript: SCAM } });
      expect(r.status).to.equal(503);
      expect(r.body.status).to.equal('error');
      expect(r.body.message).to.be.a('string');
    } finally {
      await off.close();
    }
  });

  it('with no model, the verdict is heuristic and carries no summary', async () => {
    const rules = await startTestServer({ VOICE_LLM: 'none' });
    try {
      const r = await api(rules.url, 'POST', '/scan', { key: rules.key, body: { transcript: SCAM } });
      expect(r.status).to.equal(200);
      const v = checkVerdict(r.body.verdict);
      expect(v.source).to.equal('heuristic');
      expect(v).not.to.have.property('summary');
    } finally {
      await rules.close();
    }
  });

  it('multipart: a file field named audio plus the same fields as form values', async () => {
    const form = new FormData();
    form.append('audio', new Blob([wav(1)]), 'call.wav');
    form.append('report', 'false');
    const res = await fetch(`${server.url}/voice/scan`, {
      method: 'POST',
      headers: { 'X-Auth': server.key },
      body: form,
    });
    // No recogniser on this deployment: the multipart audio was read and sent to transcription.
    expect(res.status).to.equal(502);
    const form2 = new FormData();
    form2.append('transcript', SCAM);
    const res2 = await fetch(`${server.url}/voice/scan`, {
      method: 'POST',
      headers: { 'X-Auth': server.key },
      body: form2,
    });
    expect(res2.status).to.equal(200);
    expect(((await res2.json()) as Json).status).to.equal('success');
  });
});
