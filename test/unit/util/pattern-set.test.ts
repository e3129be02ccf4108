import { expect } from 'chai';
import { PatternSet, afterLeadingBoundary } from '../../../src/util/pattern-set.js';

/** Each pattern on its own, as `exec` with the `g` flag finds its matches: [pattern, start, end]. */
function oneByOne(patterns: RegExp[], text: string): Array<[number, number, number]> {
  const out: Array<[number, number, number]> = [];
  patterns.forEach((p, i) => {
    const re = new RegExp(p.source, `${p.flags}g`);
    for (let m = re.exec(text); m; m = re.exec(text)) {
      out.push([i, m.index, m.index + m[0].length]);
      if (m[0] === '') re.lastIndex++;
    }
  });
  return out;
}

function viaSet(patterns: RegExp[], text: string): Array<[number, number, number]> {
  const out: Array<[number, number, number]> = [];
  new PatternSet(patterns).scan(text, (i, start, end) => out.push([i, start, end]));
  return out;
}

const byPattern = (a: [number, number, number], b: [number, number, number]) => a[0] - b[0] || a[1] - b[1];

describe('util/pattern-set', () => {
  it('finds what each pattern finds alone, including matches inside and across other matches', () => {
    const patterns = [/\bcall the bank\b/, /\bbank\b/, /a+/, /(?<=a)b/, /\bthe\b/, /x?/];
    for (const text of ['please call the bank now', 'aaab aab the bank', '', 'bbb', 'the the the']) {
      expect(viaSet(patterns, text).sort(byPattern), text).to.deep.equal(oneByOne(patterns, text).sort(byPattern));
    }
  });

  it('agrees with one-by-one scanning over random texts', () => {
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const patterns = [/ab/, /b+a/, /\bba\b/, /aba/, /a b/, /(?:ab|ba){2}/, /c?/];
    for (let k = 0; k < 300; k++) {
      const text = Array.from({ length: rand(30) }, () => 'ab c'[rand(4)]).join('');
      expect(viaSet(patterns, text).sort(byPattern), text).to.deep.equal(oneByOne(patterns, text).sort(byPattern));
    }
  });

  it('agrees with one-by-one scanning when every pattern begins with a word boundary (checked once)', () => {
    let seed = 11;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const hoisted = [/\bab/, /\b(?:ba|a b)\b/, /\b[a|]+/, /\bb(?=a)/, /\b\(a\|b\)/];
    // `\bab|ba`: the boundary binds only the first alternative, so nothing may be hoisted from this set.
    const mixed = [...hoisted, /\bab|ba/];
    for (let k = 0; k < 300; k++) {
      const text = Array.from({ length: rand(30) }, () => 'ab |()'[rand(6)]).join('');
      for (const patterns of [hoisted, mixed]) {
        expect(viaSet(patterns, text).sort(byPattern), text).to.deep.equal(oneByOne(patterns, text).sort(byPattern));
      }
    }
  });

  it('hoists a leading word boundary only when it applies to the whole pattern', () => {
    expect(afterLeadingBoundary(String.raw`\b(?:a|b)\b`)).to.equal(String.raw`(?:a|b)\b`);
    expect(afterLeadingBoundary(String.raw`\b[|]x`)).to.equal(String.raw`[|]x`);
    expect(afterLeadingBoundary(String.raw`\b\|x`)).to.equal(String.raw`\|x`);
    expect(afterLeadingBoundary(String.raw`\b[\]|]x`)).to.equal(String.raw`[\]|]x`);
    expect(afterLeadingBoundary(String.raw`\ba|b`)).to.equal(null);
    expect(afterLeadingBoundary(String.raw`\b(a)|(b)`)).to.equal(null);
    expect(afterLeadingBoundary(String.raw`a\b`)).to.equal(null);
    expect(afterLeadingBoundary(String.raw`\\b`)).to.equal(null);
  });

  it('reports matches in order of their start, and at one start in pattern order', () => {
    const seen = viaSet([/b/, /ab/, /a/], 'xab');
    expect(seen).to.deep.equal([
      [1, 1, 3],
      [2, 1, 2],
      [0, 2, 3],
    ]);
  });

  it('goes on from a position of an earlier scan as if it had scanned from the start', () => {
    let seed = 5;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const patterns = [/ab/, /b+a/, /\bba\b/, /(?:ab|ba){2}/, /a b/];
    const set = new PatternSet(patterns);
    for (let k = 0; k < 300; k++) {
      const text = Array.from({ length: rand(40) }, () => 'ab c'[rand(4)]).join('');
      const all = viaSet(patterns, text);
      const at = rand(text.length + 1);
      const before = all.filter(([, start]) => start < at);
      const after: Array<[number, number, number]> = [];
      set.scan(text, (i, start, end) => after.push([i, start, end]), false, set.resumeAt(text, at, before));
      expect([...before, ...after], `${text} @${at}`).to.deep.equal(all);
    }
  });

  it('tells which patterns are present, with the patterns’ shared flags', () => {
    const set = new PatternSet([/zelle/i, /venmo/i, /pay ?pal/i]);
    expect(set.present('Send it by PAYPAL or Zelle')).to.deep.equal([true, false, true]);
    expect(new PatternSet([]).present('anything')).to.deep.equal([]);
  });

  it('steps over a whole surrogate pair with the u flag', () => {
    const patterns = [/\p{Emoji_Presentation}/u, /x?/u];
    const text = 'a😀b😀';
    expect(viaSet(patterns, text).sort(byPattern)).to.deep.equal(
      [
        [0, 1, 3],
        [0, 4, 6],
        [1, 0, 0],
        [1, 1, 1],
        [1, 3, 3],
        [1, 4, 4],
        [1, 6, 6],
      ].sort(byPattern as never),
    );
  });

  it('refuses patterns whose flags differ or that use backreferences', () => {
    expect(() => new PatternSet([/a/i, /b/])).to.throw(TypeError, /flags/);
    expect(() => new PatternSet([/(a)\1/])).to.throw(TypeError, /backreference/);
    expect(() => new PatternSet([/(?<x>a)\k<x>/])).to.throw(TypeError, /backreference/);
  });
});
