import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { parseWav } from '../../src/audio/wav.js';
import { metrics } from '../../src/observability/metrics.js';
import { detectSphinx } from '../../src/providers/stt/sphinx.js';
import { OFF_THREAD_BYTES, parseScanRequest } from '../../src/server/routes/scan-body.js';
import { readScanBody, validateScan } from '../../src/server/routes/scan-request.js';
import { HttpError, type HttpRequest } from '../../src/server/types.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ESCALATING_SCAM_CALL, openLive, send, transcript, waitFor } from './helpers/live-client.js';

type Json = Record<string, unknown>;

function speak(text: string): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scan-body-'));
  const file = path.join(dir, 'speech.wav');
  try {
    execFileSync('espeak-ng', ['-v', 'en-us', '-s', '150', '-w', file, text]);
    return fs.readFileSync(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function workerReads(): Promise<number> {
  const m = await metrics.scanBodies.get();
  return m.values.find((v) => v.labels.on === 'worker')?.value ?? 0;
}

/** A request as the adapter hands it to the route: headers and the whole body. */
function request(contentType: string, body: Buffer): HttpRequest {
  return { headers: { 'content-type': contentType }, body } as unknown as HttpRequest;
}

/** What the main thread alone makes of a body: the request, or the error's status and message. */
async function onMainThread(req: HttpRequest): Promise<unknown> {
  try {
    return validateScan(await readScanBody(req));
  } catch (e) {
    return e instanceof HttpError ? { status: e.status, message: e.message } : e;
  }
}

async function throughRoute(req: HttpRequest): Promise<unknown> {
  try {
    return await parseScanRequest(req);
  } catch (e) {
    return e instanceof HttpError ? { status: e.status, message: e.message } : e;
  }
}

describe('integration/scan: large bodies read off the main thread', function () {
  this.timeout(180_000);
  let s: TestServer;
  let wav: Buffer;

  before(async function () {
    if (!detectSphinx()) this.skip(); // PocketSphinx (Debian pocketsphinx, pocketsphinx-en-us) not installed
    s = await startTestServer({ VOICE_LLM: 'none', VOICE_STT: 'sphinx' });
    wav = speak(
      'This is the fraud department of your bank. Your account has been suspended. ' +
        'Buy gift cards and read me the numbers on the back, or you will be arrested today.',
    );
  });
  after(async () => s?.close());

  it('scans a large audio_base64 body while a live filter call goes on, its events all arriving', async () => {
    const body = Buffer.from(JSON.stringify({ audio_base64: wav.toString('base64'), encoding: 'wav' }));
    expect(body.length).to.be.greaterThan(OFF_THREAD_BYTES);
    const before = await workerReads();

    const run = await openLive(`${s.wsUrl}/voice/filter/stream?key=${s.key}`);
    send(run, { type: 'start', call_id: 'live-1', from: '+12025550123', to: '+12025550999', sample_rate: 8000 });
    await waitFor(run, 'session.started');
    const scan = fetch(`${s.url}/voice/scan`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth': s.key },
      body,
    });
    for (const line of ESCALATING_SCAM_CALL) transcript(run, line);
    const res = await scan;
    const answer = (await res.json()) as Json;
    send(run, { type: 'stop' });
    expect((await run.closed).code).to.equal(1000);

    expect(res.status, JSON.stringify(answer)).to.equal(200);
    expect(String(answer.transcript)).to.match(/^caller: /);
    expect(String(answer.transcript).length).to.be.greaterThan(40);
    expect(answer.verdict).to.be.an('object');
    const rec = await s.services.store.sessions.get(String(answer.session_id));
    const info = parseWav(wav);
    expect(rec?.duration_seconds).to.equal(Math.round(info.frames / info.sampleRate));
    expect(await workerReads()).to.equal(before + 1);

    const lines = run.events.filter((e) => e.type === 'transcript.line');
    expect(lines).to.have.length(ESCALATING_SCAM_CALL.length);
    expect(run.events.some((e) => e.type === 'verdict')).to.equal(true);
    expect(run.events.at(-1)?.type).to.equal('session.ended');
  });

  it('answers the same large body as multipart, read on the worker too, with the same transcript', async () => {
    const json = Buffer.from(JSON.stringify({ audio_base64: wav.toString('base64'), encoding: 'wav' }));
    const form = new FormData();
    form.set('audio', new Blob([wav]), 'call.wav');
    const before = await workerReads();
    const [a, b] = await Promise.all([
      fetch(`${s.url}/voice/scan`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-auth': s.key },
        body: json,
      }),
      fetch(`${s.url}/voice/scan`, { method: 'POST', headers: { 'x-auth': s.key }, body: form }),
    ]);
    const [ja, jb] = (await Promise.all([a.json(), b.json()])) as [Json, Json];
    expect([a.status, b.status]).to.deep.equal([200, 200]);
    expect(jb.transcript).to.equal(ja.transcript);
    expect(jb.verdict).to.deep.equal(ja.verdict);
    expect(await workerReads()).to.equal(before + 2);
  });

  describe('the worker reads a body exactly as the main thread does', () => {
    const pad = 'A'.repeat(OFF_THREAD_BYTES); // valid base64, so the body is large whatever else it holds
    const cases: Array<[string, string, Buffer]> = [
      [
        'audio_base64 with options',
        'application/json',
        Buffer.from(
          JSON.stringify({
            audio_base64: pad,
            encoding: 'pcm16',
            sample_rate: 16000,
            from: '+12025550123',
            report: true,
            language: 'en-US',
          }),
        ),
      ],
      [
        'audio_base64 with line breaks',
        'application/json',
        Buffer.from(JSON.stringify({ audio_base64: pad.replace(/(.{76})/g, '$1\n'), encoding: 'mulaw' })),
      ],
      ['invalid base64', 'application/json', Buffer.from(JSON.stringify({ audio_base64: `${pad}!!` }))],
      [
        'invalid base64 after a bad field',
        'application/json',
        Buffer.from(JSON.stringify({ audio_base64: `${pad}!!`, encoding: 'mp3' })),
      ],
      [
        'audio_base64 not a string',
        'application/json',
        Buffer.from(JSON.stringify({ audio_base64: [1, 2], transcript: pad })),
      ],
      [
        'a long transcript',
        'application/json',
        Buffer.from(JSON.stringify({ transcript: `caller: hello ${'x'.repeat(OFF_THREAD_BYTES)}` })),
      ],
      ['not JSON', 'application/json', Buffer.from(`{"audio_base64":"${pad}"`)],
      ['a JSON array', 'application/json', Buffer.from(`["${pad}"]`)],
      [
        'transcript and audio',
        'application/json',
        Buffer.from(JSON.stringify({ audio_base64: pad, transcript: 'hi' })),
      ],
    ];
    for (const [name, type, body] of cases) {
      it(name, async () => {
        const expected = await onMainThread(request(type, body));
        expect(await throughRoute(request(type, Buffer.from(body)))).to.deep.equal(expected);
      });
    }

    it('a multipart form with a file and form values, and one with audio twice', async () => {
      for (const parts of [
        [
          ['audio', new Blob([Buffer.alloc(OFF_THREAD_BYTES, 7)]), 'x.raw'],
          ['encoding', 'pcm16'],
          ['sample_rate', '8000'],
        ],
        [
          ['audio', new Blob([Buffer.alloc(OFF_THREAD_BYTES, 7)]), 'x.raw'],
          ['audio_base64', 'AAAA'],
        ],
      ] as Array<[string, string | Blob, string?]>[]) {
        const form = new FormData();
        for (const [k, v, f] of parts) f ? form.append(k, v as Blob, f) : form.append(k, v as string);
        const r = new Response(form);
        const type = r.headers.get('content-type')!;
        const body = Buffer.from(await r.arrayBuffer());
        const expected = await onMainThread(request(type, body));
        expect(await throughRoute(request(type, Buffer.from(body)))).to.deep.equal(expected);
      }
    });
  });
});
