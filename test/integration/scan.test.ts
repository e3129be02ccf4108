import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { writeWav } from '../../src/audio/wav.js';
import { metrics } from '../../src/observability/metrics.js';
import { hashKey } from '../../src/server/auth.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

type Json = Record<string, unknown>;

const IRS_SCAM = [
  'caller: This is Officer Daniel Brooks from the Internal Revenue Service. You owe back taxes of $4,870 and a lawsuit has been filed against you.',
  'callee: I filed my taxes.',
  'caller: If you do not pay today, local police will come to arrest you. Pay with Google Play gift cards and read me the numbers. Call me back at 202-555-0147.',
].join('\n');

const PHARMACY =
  'Hi, this is the Walgreens pharmacy calling for Maria. Your prescription is ready for pickup. Press 1 to repeat this message.';

async function post(s: TestServer, body: unknown, headers: Record<string, string> = {}, key = s.key) {
  const res = await fetch(`${s.url}/voice/scan`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth': key, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

async function postForm(s: TestServer, form: FormData) {
  const res = await fetch(`${s.url}/voice/scan`, { method: 'POST', headers: { 'x-auth': s.key }, body: form });
  return { status: res.status, body: (await res.json()) as Json };
}

async function get(s: TestServer, path: string) {
  const res = await fetch(`${s.url}${path}`, { headers: { 'x-auth': s.key } });
  return { status: res.status, body: (await res.json()) as Json };
}

function expect400(r: { status: number; body: Json }, field: string): void {
  expect(r.status, JSON.stringify(r.body)).to.equal(400);
  expect(r.body.status).to.equal('error');
  expect(String(r.body.message)).to.match(new RegExp(`^${field}\\b`));
}

describe('integration/scan: POST /voice/scan', function () {
  this.timeout(30_000);
  let s: TestServer;

  before(async () => {
    // Rules only: figures in these tests do not depend on which model a deployment runs.
    s = await startTestServer({ VOICE_LLM: 'none' });
  });
  after(async () => s.close());

  it('scores a scam transcript, files caller and callback numbers, and answers exactly the spec fields', async () => {
    const from = `+1512555${String(1000 + Math.floor(Math.random() * 8999))}`;
    const r = await post(s, { transcript: IRS_SCAM, from, report: true, colour: 'ignored' });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(Object.keys(r.body).sort()).to.deep.equal(
      ['intel', 'reported', 'reported_numbers', 'session_id', 'status', 'transcript', 'verdict'].sort(),
    );
    const verdict = r.body.verdict as Json;
    expect(verdict.level).to.equal('scam');
    expect(verdict.category).to.equal('Tax Collection');
    expect(verdict.source).to.equal('heuristic');
    expect(verdict.tactics).to.include.members(['threat', 'untraceable_payment']);
    // Above 0.6 the signals quote the caller.
    for (const sig of verdict.signals as string[]) expect(IRS_SCAM).to.include(sig.replace(/^[^"]*"|"$/g, ''));
    const intel = r.body.intel as Json;
    expect(intel.callback_numbers).to.deep.equal(['+12025550147']);
    expect(intel.gift_card_brands).to.deep.equal(['Google Play']);
    expect(r.body.reported).to.equal(true);
    expect(r.body.reported_numbers).to.equal(2);
    expect(r.body.transcript).to.equal(IRS_SCAM);

    const sess = await get(s, `/voice/sessions/${String(r.body.session_id)}`);
    expect(sess.status).to.equal(200);
    const rec = sess.body.session as Json;
    expect(rec.kind).to.equal('scan');
    expect(rec.protocol).to.equal('http');
    expect(rec.turns).to.equal(3);
    expect(rec.reported).to.equal(true);
    expect(rec.intel_count).to.be.greaterThan(3);

    const num = await get(s, `/voice/numbers/${encodeURIComponent(from)}`);
    expect(num.status).to.equal(200);
    expect(num.body).to.include({ status: 'success', number: from, reported: true, complaints: 1 });
    expect(num.body.categories).to.deep.equal(['Tax Collection']);
  });

  it('scores only the caller: the callee repeating scary words does not make a scam', async () => {
    const r = await post(s, {
      transcript:
        'caller: Hi, this is Lakeside Dental confirming your cleaning on Tuesday.\ncallee: Is this about the arrest warrant? Should I buy gift cards?',
    });
    expect(r.status).to.equal(200);
    expect((r.body.verdict as Json).level).to.equal('clean');
    expect(r.body.reported).to.equal(false);
    expect(r.body.reported_numbers).to.equal(0);
  });

  it('does not file a legitimate call even with report=true', async () => {
    const r = await post(s, { transcript: PHARMACY, from: '+15125550111', report: true });
    expect(r.status).to.equal(200);
    expect(['clean', 'suspicious']).to.include((r.body.verdict as Json).level);
    expect(r.body.reported).to.equal(false);
    const num = await get(s, `/voice/numbers/${encodeURIComponent('+15125550111')}`);
    expect(num.body.reported).to.equal(false);
    expect(num.body.complaints).to.equal(0);
  });

  it('does not file without report=true', async () => {
    const from = '+15125550222';
    const r = await post(s, { transcript: IRS_SCAM, from });
    expect((r.body.verdict as Json).level).to.equal('scam');
    expect(r.body.reported).to.equal(false);
    expect(r.body.reported_numbers).to.equal(0);
    expect((await get(s, `/voice/numbers/${encodeURIComponent(from)}`)).body.reported).to.equal(false);
  });

  describe('validation: 400 names the field', () => {
    const cases: Array<[string, unknown, string]> = [
      ['no transcript or audio', {}, 'transcript'],
      ['blank transcript', { transcript: '   ' }, 'transcript'],
      ['transcript not a string', { transcript: 42 }, 'transcript'],
      ['both transcript and audio', { transcript: 'hi', audio_base64: 'AAAA' }, 'transcript'],
      ['bad base64', { audio_base64: 'not base64!!' }, 'audio_base64'],
      ['unknown encoding', { audio_base64: 'AAAA', encoding: 'mp3' }, 'encoding'],
      ['pcm16 without sample_rate', { audio_base64: 'AAAA', encoding: 'pcm16' }, 'sample_rate'],
      ['sample_rate not whole', { transcript: 'hi', sample_rate: 8000.5 }, 'sample_rate'],
      ['sample_rate out of range', { transcript: 'hi', sample_rate: 4000 }, 'sample_rate'],
      ['from not E.164', { transcript: 'hi', from: '5125550100' }, 'from'],
      ['to not E.164', { transcript: 'hi', to: 'abc' }, 'to'],
      ['report not boolean', { transcript: 'hi', report: 'yes' }, 'report'],
      ['report without from', { transcript: 'hi', report: true }, 'from'],
      ['language not BCP-47', { transcript: 'hi', language: 'english please' }, 'language'],
      ['transcript too long', { transcript: 'word '.repeat(100_001) }, 'transcript'],
    ];
    for (const [name, body, field] of cases) {
      it(`${name} → ${field}`, async () => expect400(await post(s, body), field));
    }
    it('a body that is not JSON → body', async () => expect400(await post(s, '{nope'), 'body'));
    it('a JSON array → body', async () => expect400(await post(s, '[]'), 'body'));
  });

  it('401 without a key', async () => {
    const res = await fetch(`${s.url}/voice/scan`, { method: 'POST', body: JSON.stringify({ transcript: 'hi' }) });
    expect(res.status).to.equal(401);
  });

  it('charges 2 credits per transcript and answers 402 when the balance is short, taking nothing', async () => {
    const key = `low_${randomBytes(8).toString('hex')}`;
    const id = randomUUID();
    await s.services.store.keys.create({
      id,
      hash: hashKey(key),
      label: 'low',
      credits: 3,
      created_at: new Date().toISOString(),
    });
    const first = await post(s, { transcript: PHARMACY }, {}, key);
    expect(first.status).to.equal(200);
    expect(await s.services.store.keys.balance(id)).to.equal(1);
    const second = await post(s, { transcript: PHARMACY }, {}, key);
    expect(second.status).to.equal(402);
    expect(second.body.status).to.equal('error');
    expect(await s.services.store.keys.balance(id)).to.equal(1);
  });

  describe('multipart', () => {
    it('accepts the transcript and options as form values', async () => {
      const form = new FormData();
      form.set('transcript', IRS_SCAM);
      form.set('from', '+15125550333');
      form.set('report', 'true');
      const r = await postForm(s, form);
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(r.body.reported).to.equal(true);
    });

    it('rejects a field sent twice, naming it', async () => {
      const form = new FormData();
      form.append('transcript', 'one');
      form.append('transcript', 'two');
      expect400(await postForm(s, form), 'transcript');
    });

    it('rejects a report value that is not true or false', async () => {
      const form = new FormData();
      form.set('transcript', 'hello');
      form.set('report', 'maybe');
      expect400(await postForm(s, form), 'report');
    });

    it('rejects two audio files, naming audio', async () => {
      const form = new FormData();
      const wav = writeWav(new Int16Array(8000), 8000);
      form.append('audio', new Blob([wav]), 'a.wav');
      form.append('audio', new Blob([wav]), 'b.wav');
      expect400(await postForm(s, form), 'audio');
    });

    it('rejects undecodable audio with 400 naming audio', async () => {
      const form = new FormData();
      form.set('audio', new Blob([Buffer.from('this is not audio at all, just text')]), 'x.wav');
      expect400(await postForm(s, form), 'audio');
    });

    it('answers 502 when no speech-to-text is available, and refunds the audio price', async () => {
      const before = await s.services.store.keys.balance((await s.services.store.keys.findByHash(hashKey(s.key)))!.id);
      const form = new FormData();
      form.set('audio', new Blob([writeWav(new Int16Array(8000 * 3), 8000)]), 'call.wav');
      const r = await postForm(s, form);
      expect(r.status, JSON.stringify(r.body)).to.equal(502);
      const after = await s.services.store.keys.balance((await s.services.store.keys.findByHash(hashKey(s.key)))!.id);
      expect(after).to.equal(before);
    });
  });
});

describe('integration/scan: feature switched off', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ VOICE_LLM: 'none', VOICE_FEATURES: 'live_filter,honeypot' });
  });
  after(async () => s.close());

  it('answers 503', async () => {
    const r = await post(s, { transcript: IRS_SCAM });
    expect(r.status).to.equal(503);
    expect(r.body.status).to.equal('error');
  });
});

async function analysesOn(): Promise<{ worker: number; thread: number }> {
  const m = await metrics.analyses.get();
  const on = (where: string) => m.values.find((v) => v.labels.on === where)?.value ?? 0;
  return { worker: on('worker'), thread: on('thread') };
}

describe('integration/scan: analysis workers', function () {
  this.timeout(60_000);
  let onThread: TestServer;
  let onWorkers: TestServer;
  before(async () => {
    [onThread, onWorkers] = await Promise.all([
      startTestServer({ VOICE_ANALYSIS_WORKERS: '0' }),
      startTestServer({ VOICE_ANALYSIS_WORKERS: '2' }),
    ]);
  });
  after(async () => Promise.all([onThread.close(), onWorkers.close()]));

  it('a node scoring scans on its workers answers exactly as one scoring on its own thread', async () => {
    expect(onThread.services.analysis).to.equal(undefined);
    expect(await onWorkers.services.analysis!.start()).to.equal(2);
    const transcripts = [IRS_SCAM, PHARMACY, 'caller: your car warranty expires today, press one now'];
    const before = await analysesOn();
    for (const transcript of transcripts) {
      const [a, b] = await Promise.all([post(onThread, { transcript }), post(onWorkers, { transcript })]);
      expect(b.status, JSON.stringify(b.body)).to.equal(200);
      expect(b.body.verdict).to.deep.equal(a.body.verdict);
      expect(b.body.intel).to.deep.equal(a.body.intel);
    }
    // Both nodes run in this process and share its metrics: the workers' node is the only one with workers.
    const after = await analysesOn();
    expect(after.worker - before.worker).to.equal(transcripts.length);
    expect(after.thread - before.thread).to.equal(transcripts.length);
  });
});
