import { expect } from 'chai';
import { copyBytes, ownedCopy, pooledBytes, pooledSamples } from '../../../src/util/bytes.js';
import { decodeG711, MULAW_TO_PCM } from '../../../src/audio/g711.js';

describe('pooled audio buffers', () => {
  it('gives aligned 16-bit views that do not overlap one another', () => {
    const a = pooledSamples(81);
    const b = pooledSamples(80);
    a.fill(1);
    b.fill(2);
    expect(a.byteOffset % 2).to.equal(0);
    expect(b.byteOffset % 2).to.equal(0);
    expect(a.every((x) => x === 1)).to.equal(true);
    expect(pooledBytes(3)).to.have.length(3);
  });

  it('keeps every buffer apart across many slabs, and gives large ones memory of their own', () => {
    const views = Array.from({ length: 100 }, (_, i) => pooledSamples(160 + (i % 3)).fill(i));
    views.forEach((v, i) => expect(v.every((x) => x === i)).to.equal(true));
    expect(new Set(views.map((v) => v.buffer)).size).to.be.greaterThan(3);
    expect(pooledBytes(5000).buffer.byteLength).to.equal(5000);
    expect(pooledSamples(3000).buffer.byteLength).to.equal(6000);
  });

  it('copies bytes so the source can be reused without changing the copy', () => {
    const src = new Uint8Array([1, 2, 3]);
    const copy = copyBytes(src);
    src.fill(9);
    expect([...copy]).to.deep.equal([1, 2, 3]);
    expect(copy).to.be.instanceOf(Uint8Array);
  });

  it('an owned copy holds only its own memory, so a held chunk pins no shared pool', () => {
    const slice = pooledBytes(160).fill(7);
    expect(slice.buffer.byteLength).to.be.greaterThan(160); // a slice of the shared pool
    const owned = ownedCopy(slice);
    expect(owned.buffer.byteLength).to.equal(160);
    expect([...owned]).to.deep.equal([...slice]);
    const own = new Int16Array(4);
    expect(ownedCopy(own)).to.equal(own);
  });

  it('decoded G.711 frames are independent of each other', () => {
    const a = decodeG711(new Uint8Array([0xff, 0x00]), MULAW_TO_PCM);
    const b = decodeG711(new Uint8Array([0x00, 0xff]), MULAW_TO_PCM);
    expect([...a]).to.deep.equal([0, -32124]);
    expect([...b]).to.deep.equal([-32124, 0]);
  });
});
