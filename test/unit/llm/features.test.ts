import { expect } from 'chai';
import { bigramHash32, hash32 } from '../../../src/providers/llm/local/features.js';

describe('embedded model features', () => {
  it('hash a bigram exactly as the string "a b" was hashed when the weights were trained', () => {
    const pairs: Array<[string, string]> = [
      ['gift', 'cards'],
      ['a', 'b'],
      ["don't", 'hang'],
      ['0', 'dollars'],
      ['café', 'número'],
      ['', 'x'],
      ['warrant', ''],
    ];
    for (const [a, b] of pairs) expect(bigramHash32(hash32(a), b), `${a} ${b}`).to.equal(hash32(`${a} ${b}`));
  });

  it('keep FNV-1a 32-bit values (the trained buckets depend on them)', () => {
    expect(hash32('')).to.equal(0x811c9dc5);
    expect(hash32('a')).to.equal(0xe40c292c);
    expect(hash32('foobar')).to.equal(0xbf9cf968);
  });
});
