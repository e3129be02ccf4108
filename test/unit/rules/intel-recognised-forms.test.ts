import { expect } from 'chai';
import { spokenNumbersToDigits } from '../../../src/audio/spoken-numbers.js';
import { writeCardinals } from '../../../src/rules/intel/cardinals.js';
import { extractIntel } from '../../../src/rules/intel/extract.js';
import { digitizeSpoken } from '../../../src/rules/intel/spoken.js';

/** What the node reads from one recognised utterance (normalised as recogniser output is). */
const read = (recognised: string) => extractIntel(spokenNumbersToDigits(recognised, 'en'));

describe('rules/intel: counts with "thousand" in them', () => {
  it('reads a reference said as a count as its value, not digit by digit', () => {
    expect(writeCardinals('seven thousand seven hundred thirty one')).to.equal('7731');
    expect(writeCardinals('forty four thousand seven hundred twenty one')).to.equal('44721');
    expect(writeCardinals('three thousand and five')).to.equal('3005');
    expect(digitizeSpoken('my badge number is four thousand four hundred ten')).to.equal('my badge number is 4410');
  });

  it('leaves digit strings, "a thousand" and text without the word alone', () => {
    expect(digitizeSpoken('eight hundred five five five')).to.equal('800555');
    expect(writeCardinals('a thousand times')).to.equal('a thousand times');
    expect(writeCardinals('no numbers here')).to.equal('no numbers here');
  });

  it('files the case number a count was', () => {
    expect(read('my badge number is four thousand four hundred ten').case_numbers).to.deep.equal(['4410']);
  });
});
