import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { parseWav } from '../../src/audio/wav.js';
import { hashKey } from '../../src/server/auth.js';
import { detectSphinx } from '../../src/providers/stt/sphinx.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

type Json = Record<string, unknown>;

/** Real speech: eSpeak NG says the text into a WAV file (written to disk so its header carries the length). */
function speak(text: string): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scan-audio-'));
  const file = path.join(dir, 'speech.wav');
  try {
    execFileSync('espeak-ng', ['-v', 'en-us', '-s', '150', '-w', file, text]);
    return fs.readFileSync(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('integration/scan: audio through the real recogniser', function () {
  this.timeout(120_000);
  let s: TestServer;
  let wav: Buffer;

  before(async function () {
    if (!detectSphinx()) this.skip(); // PocketSphinx (Debian pocketsphinx, pocketsphinx-en-us) not installed
    s = await startTestServer({ VOICE_LLM: 'none', VOICE_STT: 'sphinx' });
    wav = speak('Your social security number is suspended. Call me back now.');
  });
  after(async () => s?.close());

  async function lowKey(credits: number): Promise<{ key: string; id: string }> {
    const key = `audio_${randomBytes(8).toString('hex')}`;
    const id = randomUUID();
    await s.services.store.keys.create({
      id,
      hash: hashKey(key),
      label: 'audio',
      credits,
      created_at: new Date().toISOString(),
    });
    return { key, id };
  }

  it('transcribes audio_base64, scores it, stores it and charges 2 + 1 per started minute', async () => {
    const { key, id } = await lowKey(10);
    const res = await fetch(`${s.url}/voice/scan`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth': key },
      body: JSON.stringify({ audio_base64: wav.toString('base64'), encoding: 'wav' }),
    });
    const body = (await res.json()) as Json;
    expect(res.status, JSON.stringify(body)).to.equal(200);
    expect(body.transcript)
      .to.be.a('string')
      .and.match(/^caller: /);
    expect(String(body.transcript).length).to.be.greaterThan(20);
    expect(body.verdict).to.be.an('object');
    expect(await s.services.store.keys.balance(id)).to.equal(10 - 3); // a few seconds of audio: one started minute
    const rec = await s.services.store.sessions.get(String(body.session_id));
    expect(rec?.kind).to.equal('scan');
    const info = parseWav(wav);
    expect(rec?.duration_seconds).to.equal(Math.round(info.frames / info.sampleRate));
  });

  it('takes the same audio as a multipart file part', async () => {
    const form = new FormData();
    form.set('audio', new Blob([wav]), 'call.wav');
    form.set('language', 'en-US');
    const res = await fetch(`${s.url}/voice/scan`, { method: 'POST', headers: { 'x-auth': s.key }, body: form });
    const body = (await res.json()) as Json;
    expect(res.status, JSON.stringify(body)).to.equal(200);
    expect(String(body.transcript)).to.match(/^caller: /);
  });

  it('answers 402 before transcribing when the audio costs more than the balance', async () => {
    const { key, id } = await lowKey(2);
    const res = await fetch(`${s.url}/voice/scan`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth': key },
      body: JSON.stringify({ audio_base64: wav.toString('base64') }),
    });
    expect(res.status).to.equal(402);
    expect(await s.services.store.keys.balance(id)).to.equal(2);
  });
});
