import { expect } from 'chai';
import { from, lastValueFrom, map, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { resample } from '../../../operators/resample.js';
import { resampleAll } from '../../../src/audio/resampler.js';
import { amplitudeAt, chunked, db, tone } from '../../fixtures/audio/signals.js';

const AMPLITUDE = 10_000;

async function resampleChunks(input: Int16Array, fromRate: number, toRate: number, chunkMs = 20): Promise<Int16Array> {
  const chunks = chunked(input, (fromRate * chunkMs) / 1000);
  const out = await lastValueFrom(from(chunks).pipe(resample(fromRate, toRate), toArray()));
  const joined = new Int16Array(out.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of out) {
    joined.set(c, at);
    at += c.length;
  }
  return joined;
}

/** Drops the filter's start-up and tail so only the steady state is measured. */
function steady(x: Int16Array, rate: number): Int16Array {
  return x.subarray(Math.round(rate * 0.05), x.length - Math.round(rate * 0.05));
}

describe('operators/resample', () => {
  it('keeps a 1 kHz tone through 16 → 8 kHz (within 0.5 dB)', async () => {
    const y = await resampleChunks(tone(1000, 16000, 1, AMPLITUDE), 16000, 8000);
    expect(y.length).to.be.within(7990, 8010);
    const gain = db(amplitudeAt(steady(y, 8000), 1000, 8000) / AMPLITUDE);
    expect(Math.abs(gain)).to.be.lessThan(0.5);
  });

  it('removes a 7 kHz tone going 16 → 8 kHz instead of folding it onto 1 kHz (≥ 60 dB down)', async () => {
    const y = steady(await resampleChunks(tone(7000, 16000, 1, AMPLITUDE), 16000, 8000), 8000);
    const alias = amplitudeAt(y, 1000, 8000);
    expect(db(alias / AMPLITUDE)).to.be.lessThan(-60);
  });

  it('the measurement can tell: plain sample dropping folds the 7 kHz tone onto 1 kHz at full strength', () => {
    const x = tone(7000, 16000, 1, AMPLITUDE);
    const dropped = Int16Array.from({ length: 8000 }, (_, i) => x[i * 2]!);
    expect(db(amplitudeAt(steady(dropped, 8000), 1000, 8000) / AMPLITUDE)).to.be.greaterThan(-1);
  });

  it('lifts 8 → 16 kHz keeping a 1 kHz tone and no image at 7 kHz (≥ 60 dB down)', async () => {
    const y = steady(await resampleChunks(tone(1000, 8000, 1, AMPLITUDE), 8000, 16000), 16000);
    expect(Math.abs(db(amplitudeAt(y, 1000, 16000) / AMPLITUDE))).to.be.lessThan(0.5);
    expect(db(amplitudeAt(y, 7000, 16000) / AMPLITUDE)).to.be.lessThan(-60);
  });

  it('gives the same samples whether fed in 20 ms chunks or all at once (state carries across chunks)', async () => {
    const x = tone(440, 48000, 0.5, AMPLITUDE);
    const chunkedOut = await resampleChunks(x, 48000, 16000);
    const whole = resampleAll(x, 48000, 16000);
    const n = Math.min(chunkedOut.length, whole.length);
    expect(n).to.be.greaterThan(7900);
    let maxDiff = 0;
    for (let i = 0; i < n; i++) maxDiff = Math.max(maxDiff, Math.abs(chunkedOut[i]! - whole[i]!));
    expect(maxDiff).to.be.lessThanOrEqual(1);
  });

  it('converts every supported input rate to 16 kHz with the right length', async () => {
    for (const rate of [8000, 11025, 16000, 22050, 24000, 32000, 44100, 48000]) {
      const y = await resampleChunks(tone(300, rate, 0.4, AMPLITUDE), rate, 16000);
      expect(y.length, String(rate)).to.be.within(6390, 6410);
      expect(Math.abs(db(amplitudeAt(steady(y, 16000), 300, 16000) / AMPLITUDE)), String(rate)).to.be.lessThan(0.5);
    }
  });

  it('passes audio through untouched when the rates match', async () => {
    const x = tone(300, 16000, 0.1);
    const y = await resampleChunks(x, 16000, 16000);
    expect(Array.from(y)).to.deep.equal(Array.from(x));
  });
});

describe('operators/resample: subscription', () => {
  const scheduler = () =>
    new TestScheduler((a, b) => {
      expect(a).to.deep.equal(b);
    });

  it('sends the filter tail when the audio completes, and lets go of the audio then', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const pcm$ = cold('a-a|', { a: tone(1000, 16000, 0.02, AMPLITUDE) });
      // Each chunk is emitted as it is filtered; the tail comes with the completion.
      expectObservable(
        pcm$.pipe(
          resample(16000, 8000),
          map(() => 'y'),
        ),
      ).toBe('a-a(t|)', { a: 'y', t: 'y' });
      expectSubscriptions(pcm$.subscriptions).toBe('^--!');
    });
  });

  it('lets go of the audio when unsubscribed', () => {
    scheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const pcm$ = hot('a-a-a-a', { a: tone(1000, 16000, 0.02, AMPLITUDE) });
      expectObservable(
        pcm$.pipe(
          resample(16000, 8000),
          map(() => 'y'),
        ),
        '^--!',
      ).toBe('y-y');
      expectSubscriptions(pcm$.subscriptions).toBe('^--!');
    });
  });

  it('is the source itself when the rates match', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const x = Int16Array.from([1, 2, 3]);
      const pcm$ = cold('a-a|', { a: x });
      expectObservable(pcm$.pipe(resample(16000, 16000))).toBe('a-a|', { a: x });
      expectSubscriptions(pcm$.subscriptions).toBe('^--!');
    });
  });
});
