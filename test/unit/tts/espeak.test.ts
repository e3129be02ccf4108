import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { createEspeak } from '../../../src/providers/tts/espeak.js';
import { ProviderError } from '../../../src/providers/errors.js';
import { PERSONAS } from '../../../src/honeypot/personas.js';

function rms(pcm: Int16Array): number {
  let sum = 0;
  for (const s of pcm) sum += s * s;
  return Math.sqrt(sum / Math.max(1, pcm.length));
}

describe('tts: eSpeak NG in a child process', function () {
  this.timeout(30_000);
  const tts = createEspeak();
  after(() => tts.close?.());

  it('speaks a sentence as audible 22050 Hz PCM', async () => {
    const audio = await tts.synthesize(
      'Hello, this is Margaret. Who is calling?',
      'en-us+f3',
      new AbortController().signal,
    );
    expect(audio.sampleRate).to.equal(22050);
    expect(audio.pcm.length / audio.sampleRate).to.be.within(1, 6);
    expect(rms(audio.pcm)).to.be.greaterThan(500);
  });

  it('keeps the event loop free while it speaks', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const long = 'I am going to read you a very long sentence about my roses and my garden and the weather. '.repeat(6);
    await tts.synthesize(long, 'en', new AbortController().signal);
    clearInterval(timer);
    expect(ticks).to.be.greaterThan(5);
  });

  it('answers requests in order and shapes the voice with rate', async () => {
    const s = new AbortController().signal;
    const [slow, fast] = await Promise.all([
      tts.synthesize('One two three four five six.', 'en-us', s, { rate: 100 }),
      tts.synthesize('One two three four five six.', 'en-us', s, { rate: 300 }),
    ]);
    expect(slow.pcm.length).to.be.greaterThan(fast.pcm.length * 1.5);
  });

  it('has a working voice for every persona', async () => {
    for (const p of PERSONAS) {
      const audio = await tts.synthesize('Hello?', p.tts.espeak, new AbortController().signal, p.tts);
      expect(rms(audio.pcm), p.id).to.be.greaterThan(300);
    }
  });

  it('refuses an unknown voice with a ProviderError', async () => {
    try {
      await tts.synthesize('Hello', 'no-such-voice-xx', new AbortController().signal);
      expect.fail('expected a refusal');
    } catch (err) {
      expect(err).to.be.instanceOf(ProviderError);
      expect((err as ProviderError).provider).to.equal('espeak');
    }
  });

  it('a crashed engine fails what it was doing and is restarted for the next request', async () => {
    await tts.synthesize('Warm up.', 'en-us', new AbortController().signal);
    const pending = tts.synthesize(
      'This sentence is being spoken when the engine dies. '.repeat(20),
      'en-us',
      new AbortController().signal,
    );
    const pids = execFileSync('pgrep', ['-P', String(process.pid), '-f', 'espeak-worker'])
      .toString()
      .trim()
      .split('\n');
    expect(pids).to.have.length(1);
    process.kill(Number(pids[0]), 'SIGKILL');
    const err = await pending.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(ProviderError);
    expect((err as Error).message).to.match(/speech engine stopped/);
    const again = await tts.synthesize('Back again.', 'en-us', new AbortController().signal);
    expect(rms(again.pcm)).to.be.greaterThan(500);
  });

  it('rejects at once when aborted', async () => {
    const ac = new AbortController();
    const p = tts.synthesize('Hello there', 'en-us', ac.signal);
    ac.abort();
    try {
      await p;
      expect.fail('expected an abort');
    } catch (err) {
      expect((err as Error).message).to.equal('aborted');
    }
  });
});
