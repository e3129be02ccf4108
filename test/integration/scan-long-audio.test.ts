import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { hashKey } from '../../src/server/auth.js';
import { createSphinx, detectSphinx } from '../../src/providers/stt/sphinx.js';
import { espeakAvailable, ffmpegAvailable } from '../fixtures/audio/speech.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startLiveApp, type LiveApp } from './helpers/live-node.js';

type Json = Record<string, unknown>;

/**
 * A telephone recording as a call recorder writes it: eSpeak says the sentences, ffmpeg repeats them to
 * `minutes` and writes 8 kHz mu-law WAV.
 */
function recording(sentences: string[], minutes: number): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scan-long-'));
  try {
    const speech = path.join(dir, 'speech.wav');
    execFileSync('espeak-ng', ['-v', 'en-us+klatt', '-s', '130', '-g', '10', '-w', speech, sentences.join(' ')]);
    const out = path.join(dir, 'call.wav');
    const loop = minutes > 0 ? ['-stream_loop', '-1'] : [];
    const length = minutes > 0 ? ['-t', String(minutes * 60)] : [];
    execFileSync('ffmpeg', [
      '-loglevel',
      'error',
      ...loop,
      '-i',
      speech,
      ...length,
      '-af',
      'highpass=f=300,lowpass=f=3400',
      '-ar',
      '8000',
      '-ac',
      '1',
      '-c:a',
      'pcm_mulaw',
      out,
    ]);
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function scan(app: LiveApp, key: string, wav: Buffer): Promise<{ status: number; body: Json; ms: number }> {
  const form = new FormData();
  form.set('audio', new Blob([wav]), 'call.wav');
  const t0 = Date.now();
  const res = await fetch(`${app.url}/voice/scan`, { method: 'POST', headers: { 'x-auth': key }, body: form });
  return { status: res.status, body: (await res.json()) as Json, ms: Date.now() - t0 };
}

describe('integration/scan: recordings longer than the node can transcribe in time', function () {
  this.timeout(180_000);
  let server: TestServer;
  let app: LiveApp;
  before(async function () {
    const install = detectSphinx();
    if (!install || !espeakAvailable || !ffmpegAvailable) return this.skip();
    server = await startTestServer({ VOICE_LLM: 'none' });
    // One decoder: the limit this node states is what one process decodes in the time-out.
    app = await startLiveApp(
      { ...server.services, stt: createSphinx(install, server.services.log, { decoders: 1 }) },
      {},
    );
  });
  after(async () => {
    await app?.close();
    await server?.close();
  });

  it('answers a 40-minute recording at once with 502 naming the minutes it can scan, and charges nothing', async () => {
    const wav = recording(['Please call the bank today about your credit card.', 'Thank you, goodbye.'], 40);
    expect(wav.length).to.be.below(25 * 1024 * 1024);
    const key = `long_${randomBytes(8).toString('hex')}`;
    const id = randomUUID();
    const created_at = new Date().toISOString();
    await server.services.store.keys.create({ id, hash: hashKey(key), label: 'long', credits: 1000, created_at });
    const r = await scan(app, key, wav);
    expect(r.status, JSON.stringify(r.body)).to.equal(502);
    expect(String(r.body.message)).to.match(
      /^transcription failed: this node can transcribe about \d+\.\d minutes of such a recording within the 90 s scan time-out now; this one is 40\.0 minutes/,
    );
    // Answered before any decoding: well inside the time-out, not a 504 after it.
    expect(r.ms).to.be.below(45_000);
    expect(await server.services.store.keys.balance(id)).to.equal(1000);
    expect(
      server.logs.some((l) => l.msg === 'scan: the recording is longer than this node can transcribe in time'),
    ).to.equal(true);
  });

  it('transcribes a recording it can finish, its utterances decoded in parallel and kept in order', async () => {
    const wav = recording(
      ['Please call the bank today about your credit card.', 'This is the internal revenue service.'],
      0,
    );
    const r = await scan(app, server.key, wav);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    const transcript = String(r.body.transcript);
    expect(transcript).to.match(/credit card[\s\S]*revenue service/);
  });
});
