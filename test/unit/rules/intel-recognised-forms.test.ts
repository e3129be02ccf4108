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

describe('rules/intel: case numbers with a letter prefix, as a recogniser writes them', () => {
  it('keeps the prefix said apart from the digits', () => {
    expect(read('badge number is irs twenty thousand nine hundred thirty one').case_numbers).to.deep.equal([
      'IRS-20931',
    ]);
    expect(read('the reference number is ab 123 thank you').case_numbers).to.deep.equal(['AB-123']);
  });

  it('takes no ordinary word for a prefix', () => {
    expect(read('your case number is the 12345').case_numbers).to.equal(undefined);
    expect(read('my badge number is MS-44721.').case_numbers).to.deep.equal(['MS-44721']);
  });
});

describe('rules/intel: organisations whose name the recogniser cut short', () => {
  it('knows the IRS by "internal revenue" whatever the last word came out as', () => {
    expect(read('i am calling from the internal revenue fair event').organizations).to.deep.equal(['IRS']);
    expect(read('this is the internal revenue service').organizations).to.deep.equal(['IRS']);
  });
});
