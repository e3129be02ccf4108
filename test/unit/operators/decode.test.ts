import { expect } from 'chai';
import { from, lastValueFrom, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { decode } from '../../../operators/decode.js';
import { pcm16ToBytes } from '../../../src/audio/pcm16.js';

async function run(encoding: 'pcm16' | 'mulaw' | 'alaw', frames: Uint8Array[]): Promise<number[][]> {
  const out = await lastValueFrom(from(frames).pipe(decode(encoding), toArray()));
  return out.map((a) => Array.from(a));
}

describe('operators/decode', () => {
  it('decodes pcm16 frames', async () => {
    expect(await run('pcm16', [pcm16ToBytes(Int16Array.from([1, -1, 32767]))])).to.deep.equal([[1, -1, 32767]]);
  });

  it('decodes mu-law (PCMU) and A-law (PCMA) frames', async () => {
    expect(await run('mulaw', [new Uint8Array([0xff, 0x80, 0x00])])).to.deep.equal([[0, 32124, -32124]]);
    expect(await run('alaw', [new Uint8Array([0xd5, 0x55, 0xaa])])).to.deep.equal([[8, -8, 32256]]);
  });

  it('takes audio frames as well as bytes', async () => {
    const frames = [
      { data: new Uint8Array([0xff, 0x80]) },
      { data: new Uint8Array(0) },
      { data: new Uint8Array([0x00]) },
    ];
    const out = await lastValueFrom(from(frames).pipe(decode('mulaw'), toArray()));
    expect(out.map((a) => Array.from(a))).to.deep.equal([[0, 32124], [-32124]]);
  });

  it('ignores empty frames', async () => {
    expect(await run('mulaw', [new Uint8Array(0), new Uint8Array([0xff]), new Uint8Array(0)])).to.deep.equal([[0]]);
  });

  it('joins a pcm16 sample split by an odd-sized frame and never throws on odd sizes', async () => {
    const bytes = pcm16ToBytes(Int16Array.from([256, 512, -3]));
    const frames = [bytes.subarray(0, 1), bytes.subarray(1, 4), bytes.subarray(4, 5), bytes.subarray(5, 6)];
    expect((await run('pcm16', frames)).flat()).to.deep.equal([256, 512, -3]);
  });

  it('accepts frames from a few samples to far beyond 200 ms without failing', async () => {
    const big = new Uint8Array(48000 * 2).fill(0xff); // 2 s of mu-law at 48 kHz
    const out = await run('mulaw', [new Uint8Array([0xff]), big]);
    expect(out.map((a) => a.length)).to.deep.equal([1, big.length]);
  });

  it('passes completion and errors through in order (marbles)', () => {
    new TestScheduler((a, b) => {
      expect(a).to.deep.equal(b);
    }).run(({ cold, expectObservable }) => {
      const frames = { a: new Uint8Array([0xff]), e: new Uint8Array(0), b: new Uint8Array([0x80]) };
      const src = cold('a-e-b-#', frames, new Error('socket'));
      expectObservable(src.pipe(decode('mulaw'))).toBe(
        'a---b-#',
        { a: Int16Array.from([0]), b: Int16Array.from([32124]) },
        new Error('socket'),
      );
    });
  });

  it('lets go of its source when its subscriber unsubscribes, and not before', () => {
    new TestScheduler((a, b) => {
      expect(a).to.deep.equal(b);
    }).run(({ hot, expectObservable, expectSubscriptions }) => {
      const src = hot('-a-a-a-a-a', { a: new Uint8Array([0xff]) });
      expectObservable(src.pipe(decode('mulaw')), '^--!').toBe('-a-', { a: Int16Array.from([0]) });
      expectSubscriptions(src.subscriptions).toBe('^--!');
    });
  });
});

describe('operators/decode: subscription', () => {
  it('lets go of its source when the source completes', () => {
    new TestScheduler((a, b) => {
      expect(a).to.deep.equal(b);
    }).run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('a-a|', { a: new Uint8Array([0xff]) });
      expectObservable(src.pipe(decode('mulaw'))).toBe('a-a|', { a: Int16Array.from([0]) });
      expectSubscriptions(src.subscriptions).toBe('^--!');
    });
  });
});
