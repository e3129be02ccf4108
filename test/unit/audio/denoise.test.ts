import { expect } from 'chai';
import { suppressNoise } from '../../../src/audio/denoise.js';
import { concat, silence, tone } from '../../fixtures/audio/signals.js';

const RATE = 16000;

function hiss(seconds: number, amplitude: number, seed = 11): Int16Array {
  let x = seed;
  return Int16Array.from({ length: RATE * seconds }, () => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return Math.round(((x / 0x7fffffff) * 2 - 1) * amplitude);
  });
}

const add = (a: Int16Array, b: Int16Array): Int16Array => a.map((v, i) => v + b[i]!);

/** Signal-to-error ratio of `y` against the clean `x`, in dB. */
function snr(x: Int16Array, y: Int16Array): number {
  let s = 0;
  let e = 0;
  for (let i = 0; i < x.length; i++) {
    s += x[i]! ** 2;
    e += (y[i]! - x[i]!) ** 2;
  }
  return 10 * Math.log10(s / e);
}

describe('audio/denoise', () => {
  // A "word" of tone between pauses, as the VAD cuts an utterance (pre-roll and hang-over included).
  const speech = concat(silence(RATE, 0.3), tone(440, RATE, 1, 6000), silence(RATE, 0.3), tone(300, RATE, 0.8, 6000));

  it('gives the input back unchanged with no suppression (floor 1): the overlap-add is exact', () => {
    const noisy = add(speech, hiss(speech.length / RATE, 1500));
    expect([...suppressNoise(noisy, { floor: 1 })]).to.deep.equal([...noisy]);
  });

  it('takes steady hiss out: the signal-to-noise ratio rises by more than 6 dB', () => {
    const noisy = add(speech, hiss(speech.length / RATE, 3000));
    const before = snr(speech, noisy);
    const after = snr(speech, suppressNoise(noisy, { floor: 0.2 }));
    expect(after - before).to.be.greaterThan(6);
  });

  it('leaves a clean utterance alone when its quiet frames are far below its speech (the gate)', () => {
    const clean = add(speech, hiss(speech.length / RATE, 20));
    expect([...suppressNoise(clean, { floor: 0.2, gateDb: 25 })]).to.deep.equal([...clean]);
    const noisy = add(speech, hiss(speech.length / RATE, 1500));
    expect([...suppressNoise(noisy, { floor: 0.2, gateDb: 25 })]).to.not.deep.equal([...noisy]);
  });

  it('keeps the length of utterances of any size, down to a single frame', () => {
    for (const n of [1, 100, 256, 512, 513, 4000]) expect(suppressNoise(hiss(1, 500).subarray(0, n))).to.have.length(n);
  });
});
