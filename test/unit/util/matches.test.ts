import { expect } from 'chai';
import { allMatches } from '../../../src/util/matches.js';

const same = (re: RegExp, text: string) =>
  expect(allMatches(re, text).map((m) => [m.index, ...m])).to.deep.equal(
    [...text.matchAll(re)].map((m) => [m.index, ...m]),
  );

describe('allMatches', () => {
  it('gives what matchAll gives: every match, its groups and index, in order', () => {
    same(/(\d+)-(\d+)/g, 'call 202-555 or 415-123, not 7');
    same(/x/g, 'no match here');
    same(/\b\w/g, 'one two three');
  });

  it('steps past empty matches, by code point with the u flag', () => {
    same(/a*/g, 'baaac');
    same(/(?:)/gu, 'a😀b');
    same(/(?:)/g, 'a😀b');
  });

  it('leaves a shared pattern at lastIndex 0, even when stopped early by max', () => {
    const re = /\d/g;
    expect(allMatches(re, 'a1b2c3', 2).map((m) => m[0])).to.deep.equal(['1', '2']);
    expect(re.lastIndex).to.equal(0);
    re.lastIndex = 3;
    expect(allMatches(re, 'a1b2c3').map((m) => m[0])).to.deep.equal(['1', '2', '3']);
    expect(re.lastIndex).to.equal(0);
  });

  it('refuses a pattern without the g flag, as matchAll does', () => {
    expect(() => allMatches(/\d/, '1')).to.throw(TypeError);
  });
});
