import { expect } from 'chai';
import { ALAW_TO_PCM, MULAW_TO_PCM, decodeG711 } from '../../../src/audio/g711.js';
import { ffmpegAvailable, ffmpegConvert } from '../../fixtures/audio/speech.js';

describe('audio/g711', () => {
  it('decodes the mu-law reference points', () => {
    expect(MULAW_TO_PCM[0xff]).to.equal(0);
    expect(MULAW_TO_PCM[0x7f]).to.equal(0);
    expect(MULAW_TO_PCM[0x80]).to.equal(32124);
    expect(MULAW_TO_PCM[0x00]).to.equal(-32124);
    expect(MULAW_TO_PCM[0xfe]).to.equal(8);
    expect(MULAW_TO_PCM[0x7e]).to.equal(-8);
    expect(MULAW_TO_PCM[0xf0]).to.equal(120);
  });

  it('decodes the A-law reference points', () => {
    expect(ALAW_TO_PCM[0xd5]).to.equal(8);
    expect(ALAW_TO_PCM[0x55]).to.equal(-8);
    expect(ALAW_TO_PCM[0xaa]).to.equal(32256);
    expect(ALAW_TO_PCM[0x2a]).to.equal(-32256);
    expect(ALAW_TO_PCM[0xd4]).to.equal(24);
  });

  it('is monotonic over each sign half (no table entry out of order)', () => {
    // mu-law: 0x80..0xFF runs from +32124 down to 0; A-law magnitudes grow with the code after the 0x55 mask.
    for (let b = 0x81; b <= 0xff; b++) expect(MULAW_TO_PCM[b]!).to.be.lessThan(MULAW_TO_PCM[b - 1]!);
    const alawPositive = Array.from({ length: 128 }, (_, i) => ALAW_TO_PCM[(i | 0x80) ^ 0x55]!);
    for (let i = 1; i < 128; i++) expect(alawPositive[i]!).to.be.greaterThan(alawPositive[i - 1]!);
  });

  it('decodes into a caller-supplied buffer', () => {
    const out = new Int16Array(3);
    expect(decodeG711(new Uint8Array([0xff, 0x80, 0x00]), MULAW_TO_PCM, out)).to.equal(out);
    expect(Array.from(out)).to.deep.equal([0, 32124, -32124]);
  });

  it('decodes every length alike, whether it fills whole groups of four or leaves a tail', () => {
    const codes = Uint8Array.from({ length: 11 }, (_, i) => (i * 37 + 5) & 0xff);
    for (let n = 0; n <= codes.length; n++) {
      const bytes = codes.subarray(0, n);
      const expected = Array.from(bytes, (b) => ALAW_TO_PCM[b]!);
      expect(Array.from(decodeG711(bytes, ALAW_TO_PCM)), `length ${n}`).to.deep.equal(expected);
    }
  });

  (ffmpegAvailable ? it : it.skip)('agrees with ffmpeg on every one of the 256 codes of both laws', () => {
    const codes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    for (const [law, table] of [
      ['mulaw', MULAW_TO_PCM],
      ['alaw', ALAW_TO_PCM],
    ] as const) {
      const pcm = ffmpegConvert(codes, ['-f', 's16le'], ['-f', law, '-ar', '8000', '-ac', '1']);
      const decoded = new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.byteLength));
      expect(Array.from(table)).to.deep.equal(Array.from(decoded), law);
    }
  });
});
