import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { from, lastValueFrom, toArray, filter, map } from 'rxjs';
import { transcribeAudio } from '../../pipelines/live/transcription.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { createSpeechToText } from '../../src/providers/stt/index.js';
import { createSphinx, detectSphinx } from '../../src/providers/stt/sphinx.js';
import { ProviderError } from '../../src/providers/errors.js';
import type { AudioFrame } from '../../src/domain/frames.js';
import { encodeAlaw, encodeMulaw } from '../../src/audio/g711-encode.js';
import { resampleAll } from '../../src/audio/resampler.js';
import { chunked, silence, concat } from '../fixtures/audio/signals.js';
import { espeakAvailable, hasBinary, synthesise, SCAM_SENTENCE } from '../fixtures/audio/speech.js';
import { parseWav, wavToMono } from '../../src/audio/wav.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const log = createLogger('silent');

async function waitUntil(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
const install = detectSphinx();
const reason = !install
  ? 'PocketSphinx (pocketsphinx + pocketsphinx-en-us) is not installed'
  : !espeakAvailable
    ? 'espeak-ng is not installed'
    : '';

const fliteAvailable = hasBinary('flite');
const DOMAIN_SENTENCE = 'There is a warrant for your arrest. You must pay with gift cards today.';

/** A call as a telephony vendor sends it: 8 kHz G.711, 20 ms frames. */
function callFrames(encode: (pcm: Int16Array) => Uint8Array, text: string): AudioFrame[] {
  const speech = synthesise(text);
  const narrow = concat(resampleAll(speech.samples, speech.sampleRate, 8000), silence(8000, 0.5));
  return chunked(encode(narrow), 160).map((data): AudioFrame => ({ kind: 'audio', track: 'inbound', data }));
}

async function recognise(frames: AudioFrame[], encoding: 'mulaw' | 'alaw'): Promise<string> {
  const stt = createSphinx(install!, log);
  const texts = await lastValueFrom(
    transcribeAudio(from(frames), { encoding, sampleRate: 8000 }, stt, { language: 'en-US' }).pipe(
      filter((r) => r.final),
      map((r) => r.text),
      toArray(),
    ),
  );
  return texts.join(' | ');
}

describe('PocketSphinx provider (embedded recogniser)', function () {
  this.timeout(120_000);
  before(function () {
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
  });

  it('is what `auto` selects when installed, named sphinx:en-us-calls (the shipped call model), taking the continuous stream at 16 kHz', async () => {
    const stt = await createSpeechToText(loadConfig({ VOICE_STT: 'auto' }), log);
    expect(stt).to.include({ id: 'sphinx:en-us-calls', sampleRate: 16000, wantsSegments: true });
    expect(await createSpeechToText(loadConfig({ VOICE_STT: 'none' }), log)).to.equal(null);
    expect(await createSpeechToText(loadConfig({ VOICE_STT: 'whisper' }), log)).to.equal(null); // no URL
    expect(
      (await createSpeechToText(loadConfig({ VOICE_STT: 'whisper', VOICE_WHISPER_URL: 'http://127.0.0.1:9/v1' }), log))
        ?.id,
    ).to.equal('whisper:whisper-1');
    expect((await createSpeechToText(loadConfig({ VOICE_STT: 'aws' }), log))?.id).to.equal('aws:transcribe-streaming');
    expect(detectSphinx({ PATH: '/nonexistent' })).to.equal(null);
  });

  it('recognises a spoken scam call sent as mu-law 8 kHz frames, with the callback number as digits', async () => {
    const text = await recognise(callFrames(encodeMulaw, SCAM_SENTENCE), 'mulaw');
    // Synthetic speech through an 8 kHz channel costs the recogniser a word here and there; the words
    // that carry the scam must come through, and the spoken numbers as digits.
    expect(text).to.match(/internal revenue service/);
    expect(text).to.match(/\b500\b/);
    expect(text, text).to.match(/5551234/);
  });

  it('hears the words a scam turns on in a natural voice over a μ-law line', async function () {
    if (!fliteAvailable) this.skip();
    // A flite voice over a telephone line: the words the verdict turns on must come through.
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'flite-')), 'call.wav');
    spawnSync('flite', ['-voice', 'awb', '-t', DOMAIN_SENTENCE, '-o', file]);
    const info = parseWav(readFileSync(file));
    const narrow = concat(resampleAll(wavToMono(info), info.sampleRate, 8000), silence(8000, 0.5));
    const frames = chunked(encodeMulaw(narrow), 160).map((data): AudioFrame => ({
      kind: 'audio',
      track: 'inbound',
      data,
    }));
    rmSync(path.dirname(file), { recursive: true, force: true });
    const text = await recognise(frames, 'mulaw');
    expect(text).to.match(/\bwarrant\b/);
    expect(text).to.match(/\bgift cards?\b/);
  });

  it('recognises A-law (PCMA) frames the same way', async () => {
    const text = await recognise(callFrames(encodeAlaw, 'Please call the bank today about your credit card.'), 'alaw');
    expect(text).to.match(/today about your credit card/);
  });

  it('decodes on warm processes shared across tracks, never more than its decoders, ended by close', async () => {
    // A uniquely named link to the model marks this test's decoders (not the shells around them) among all processes.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sphinx-test-'));
    const hmm = path.join(dir, 'model');
    symlinkSync(install!.hmm, hmm);
    const count = (): number =>
      spawnSync('pgrep', ['-f', `^${install!.batchBinary} .*${hmm}`], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean).length;
    const stt = createSphinx({ ...install!, hmm }, log, { decoders: 2 });
    const speech = synthesise('Please call the bank today about your credit card.');
    const utterance = resampleAll(speech.samples, speech.sampleRate, 16000);
    // Five tracks at once, two utterances each: ten decodes queue on two processes.
    const tracks = Array.from({ length: 5 }, () =>
      lastValueFrom(stt.transcribe(from([utterance, utterance]), { sampleRate: 16000 }).pipe(toArray())),
    );
    let most = 0;
    const watching = setInterval(() => (most = Math.max(most, count())), 100);
    const results = await Promise.all(tracks);
    clearInterval(watching);
    for (const r of results) {
      expect(r).to.have.length(2);
      expect(r[0]!.text).to.match(/credit card/);
    }
    expect(most).to.be.within(1, 2);
    expect(count()).to.be.within(1, 2); // still warm for the next call
    await stt.close!();
    await waitUntil(() => count() === 0);
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports a broken install as a ProviderError', async () => {
    const stt = createSphinx({ ...install!, lm: '/nonexistent/model.lm.bin' }, log);
    try {
      await lastValueFrom(stt.transcribe(from([new Int16Array(1600)]), { sampleRate: 16000 }).pipe(toArray()));
      expect.fail('should fail');
    } catch (e) {
      expect(e).to.be.instanceOf(ProviderError);
      expect((e as ProviderError).provider).to.equal('sphinx:en-us-calls');
    }
  });
});
