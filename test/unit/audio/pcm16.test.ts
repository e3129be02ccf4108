import { expect } from 'chai';
import { Pcm16Reader, pcm16FromBytes, pcm16ToBytes } from '../../../src/audio/pcm16.js';

describe('audio/pcm16', () => {
  it('reads little-endian samples', () => {
    const bytes = new Uint8Array([0x00, 0x00, 0xff, 0x7f, 0x00, 0x80, 0x34, 0x12, 0xff, 0xff]);
    expect(Array.from(pcm16FromBytes(bytes))).to.deep.equal([0, 32767, -32768, 0x1234, -1]);
  });

  it('carries an odd byte into the next chunk instead of shifting every later sample', () => {
    const samples = [1000, -2000, 3000, -4000, 5];
    const bytes = pcm16ToBytes(Int16Array.from(samples));
    const reader = new Pcm16Reader();
    const got: number[] = [];
    for (const [a, b] of [
      [0, 3],
      [3, 4],
      [4, 7],
      [7, 10],
    ] as const) {
      got.push(...reader.read(bytes.subarray(a, b)));
    }
    expect(got).to.deep.equal(samples);
    expect(reader.pending).to.equal(false);
  });

  it('copies when the bytes are not 2-aligned in memory', () => {
    const backing = new Uint8Array(7);
    backing.set([0x01, 0x00, 0x02, 0x00, 0x03, 0x00], 1);
    expect(Array.from(new Pcm16Reader().read(backing.subarray(1)))).to.deep.equal([1, 2, 3]);
  });

  it('handles empty and single-byte chunks', () => {
    const reader = new Pcm16Reader();
    expect(reader.read(new Uint8Array(0)).length).to.equal(0);
    expect(reader.read(new Uint8Array([0x10])).length).to.equal(0);
    expect(reader.pending).to.equal(true);
    expect(reader.read(new Uint8Array(0)).length).to.equal(0);
    expect(Array.from(reader.read(new Uint8Array([0x20])))).to.deep.equal([0x2010]);
  });
});
