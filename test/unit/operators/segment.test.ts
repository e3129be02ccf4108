import { expect } from 'chai';
import { from, lastValueFrom, map, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { segment, type SegmenterOptions } from '../../../operators/segment.js';
import { resampleAll } from '../../../src/audio/resampler.js';
import { chunked, concat, silence, tone } from '../../fixtures/audio/signals.js';
import { espeakAvailable, synthesise } from '../../fixtures/audio/speech.js';

const RATE = 16000;

async function cut(samples: Int16Array, opts: Partial<SegmenterOptions> = {}, chunkMs = 20): Promise<Int16Array[]> {
  const chunks = chunked(samples, (RATE * chunkMs) / 1000);
  return lastValueFrom(from(chunks).pipe(segment({ sampleRate: RATE, ...opts }), toArray()));
}

function speech(text: string): Int16Array {
  const s = synthesise(text);
  return resampleAll(s.samples, s.sampleRate, RATE);
}

function noise(seconds: number, amplitude: number, seed = 7): Int16Array {
  let x = seed;
  return Int16Array.from({ length: RATE * seconds }, () => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return Math.round(((x / 0x7fffffff) * 2 - 1) * amplitude);
  });
}

(espeakAvailable ? describe : describe.skip)('operators/segment (WebRTC VAD on synthesised speech)', () => {
  let first: Int16Array;
  let second: Int16Array;
  before(() => {
    first = speech('Hello, this is your bank calling.');
    second = speech('Please confirm your account number.');
  });

  it('cuts two sentences separated by a second of silence into two utterances', async () => {
    const call = concat(silence(RATE, 0.5), first, silence(RATE, 1), second, silence(RATE, 1));
    const utterances = await cut(call);
    expect(utterances).to.have.length(2);
    // Each utterance holds its sentence (plus a little pre-roll and hang-over), not the silences.
    expect(utterances[0]!.length / RATE).to.be.within(first.length / RATE - 0.3, first.length / RATE + 1);
    expect(utterances[1]!.length / RATE).to.be.within(second.length / RATE - 0.3, second.length / RATE + 1);
  });

  it('keeps them together when the hang-over is longer than the pause', async () => {
    const call = concat(first, silence(RATE, 1), second, silence(RATE, 2));
    expect(await cut(call, { hangoverMs: 1500 })).to.have.length(1);
  });

  it('flushes the utterance in progress when the audio ends mid-sentence', async () => {
    const utterances = await cut(concat(silence(RATE, 0.3), first));
    expect(utterances).to.have.length(1);
  });

  it('cuts long speech within the last quarter before the maximum length', async () => {
    const long = concat(first, second, first);
    const utterances = await cut(long, { maxUtteranceMs: 2000, hangoverMs: 2000 });
    expect(utterances.length).to.be.greaterThan(1);
    expect(utterances.every((u) => u.length <= RATE * 2)).to.equal(true);
    expect(utterances.slice(0, -1).every((u) => u.length >= RATE * 1.5)).to.equal(true);
  });

  it('gives the same cuts whatever the chunk size', async () => {
    const call = concat(first, silence(RATE, 1), second, silence(RATE, 1));
    const a = await cut(call, {}, 20);
    const b = await cut(call, {}, 130);
    expect(b.map((u) => u.length)).to.deep.equal(a.map((u) => u.length));
  });

  it('finds no speech in silence or low hiss', async () => {
    expect(await cut(silence(RATE, 3))).to.have.length(0);
    expect(await cut(noise(3, 100))).to.have.length(0);
  });

  it('sensitivity: a 200 Hz hum counts as speech in the least aggressive mode, not in the most aggressive', async () => {
    const hum = concat(tone(200, RATE, 2, 3000), silence(RATE, 1));
    expect(await cut(hum, { mode: 0 })).to.have.length(1);
    expect(await cut(hum, { mode: 3 })).to.have.length(0);
  });

  it('drops a blip shorter than the minimum speech', async () => {
    const blip = concat(silence(RATE, 0.5), speech('ah').subarray(0, RATE / 10), silence(RATE, 1));
    expect(await cut(blip, { minSpeechMs: 300 })).to.have.length(0);
  });
});

describe('operators/segment: stream shape and subscription', () => {
  const scheduler = () =>
    new TestScheduler((a, b) => {
      expect(a).to.deep.equal(b);
    });
  it('emits an utterance when the audio ends mid-speech, and lets go of the audio then', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      // A second of 200 Hz hum (speech to the least aggressive VAD): fifty identical 20 ms chunks, each four
      // whole periods, cut off by the end of the audio.
      const chunk = tone(200, RATE, 0.02, 3000);
      const pcm$ = cold('h'.repeat(50) + '|', { h: chunk });
      const utterances$ = pcm$.pipe(
        segment({ sampleRate: RATE, mode: 0 }),
        map((u) => u.length / RATE),
      );
      expectObservable(utterances$).toBe('-'.repeat(50) + '(u|)', { u: 1 });
      expectSubscriptions(pcm$.subscriptions).toBe('^' + '-'.repeat(49) + '!');
    });
  });

  it('cuts speech longer than the maximum at its quietest point near the end, losing no audio', async () => {
    // Hum (speech to the least aggressive VAD) with a dip too short to end the utterance at 1.70–1.80 s.
    const hum = concat(tone(200, RATE, 1.7, 3000), tone(200, RATE, 0.1, 100), tone(200, RATE, 1.2, 3000));
    const chunks = chunked(hum, RATE / 50);
    const utterances = await lastValueFrom(
      from(chunks).pipe(segment({ sampleRate: RATE, mode: 0, maxUtteranceMs: 2000 }), toArray()),
    );
    expect(utterances).to.have.length(2);
    expect(utterances[0]!.length / RATE).to.be.within(1.7, 1.8);
    expect(utterances[0]!.length + utterances[1]!.length).to.equal(hum.length);
  });

  it('emits nothing for silence, and lets go of the audio when unsubscribed', () => {
    scheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const pcm$ = hot('s-s-s-s-s', { s: silence(RATE, 0.02) });
      expectObservable(pcm$.pipe(segment({ sampleRate: RATE })), '^---!').toBe('');
      expectSubscriptions(pcm$.subscriptions).toBe('^---!');
    });
  });
});
