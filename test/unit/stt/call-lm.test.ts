import { expect } from 'chai';
import { buildArpa } from '../../../scripts/lm/kneser-ney.js';

/** Reads an ARPA text back and scores with back-off, as the recogniser does. */
function reader(arpa: string) {
  const p = new Map<string, number>();
  const bo = new Map<string, number>();
  for (const line of arpa.split('\n')) {
    const f = line.split('\t');
    if (f.length < 2 || !/^-?\d/.test(f[0]!)) continue;
    p.set(f[1]!, Number(f[0]));
    if (f[2] !== undefined) bo.set(f[1]!, Number(f[2]));
  }
  const score = (h: string[], w: string): number => {
    const key = [...h, w].join(' ');
    if (p.has(key)) return 10 ** p.get(key)!;
    return 10 ** (bo.get(h.join(' ')) ?? 0) * score(h.slice(1), w);
  };
  return score;
}

describe('call language model (interpolated Kneser-Ney with a general-English floor)', () => {
  const sentences = [
    'there is a warrant for your arrest',
    'pay with gift cards',
    'pay with gift cards today',
    'there is a warrant for you',
    'buy gift cards at the store',
  ].map((s) => s.split(' '));
  const vocab = new Set([...sentences.flat(), 'hello', 'weather']);
  const general = new Map([
    ['hello', 0.01],
    ['weather', 0.001],
    ['the', 0.05],
  ]);
  const arpa = buildArpa(sentences, { vocab, general, generalWeight: 0.3, minTrigramCount: 1 });
  const score = reader(arpa);
  const words = [...vocab, '</s>'];

  it('is a distribution in every context, seen or not', () => {
    for (const h of [[], ['pay'], ['gift'], ['with', 'gift'], ['a', 'warrant'], ['hello'], ['weather', 'hello']]) {
      const total = words.reduce((s, w) => s + score(h, w), 0);
      expect(total, h.join(' ')).to.be.closeTo(1, 0.002);
    }
  });

  it('prefers the domain phrase and still allows general words', () => {
    expect(score(['with', 'gift'], 'cards')).to.be.greaterThan(0.5);
    expect(score(['a'], 'warrant')).to.be.greaterThan(score(['a'], 'weather') * 10);
    expect(score([], 'hello')).to.be.greaterThan(0);
    expect(score([], 'hello')).to.be.greaterThan(score([], 'weather'));
  });
});
