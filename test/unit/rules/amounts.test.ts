import { expect } from 'chai';
import { readAmounts, writeAmounts } from '../../../src/rules/intel/amounts.js';
import { numberValue } from '../../../src/rules/intel/number-words.js';

describe('spoken amounts', () => {
  it('writes sums and shares said in words as a cloud recogniser writes them', () => {
    expect(writeAmounts('a charge of two hundred eighty seven dollars and ninety two cents')).to.equal(
      'a charge of $287.92',
    );
    expect(writeAmounts('qualified for fifty percent off')).to.equal('qualified for 50% off');
    expect(writeAmounts('one thousand five hundred dollars')).to.equal('$1500');
    expect(writeAmounts('a hundred bucks in gift cards')).to.equal('$100 in gift cards');
    expect(writeAmounts('500 dollars')).to.equal('$500');
    expect(writeAmounts('a zero percent interest rate')).to.equal('a 0% interest rate');
  });

  it('reads a price said in pairs as one number', () => {
    expect(numberValue('nineteen ninety nine')).to.equal(1999);
    expect(numberValue('twenty five')).to.equal(25);
    expect(numberValue('one hundred twenty')).to.equal(120);
  });

  it('leaves words that are no amount as they were', () => {
    for (const t of ['i owe you a few dollars', 'the dollar is weak', 'one of them is a percent sign', 'dollars'])
      expect(writeAmounts(t)).to.equal(t);
  });

  it('maps every position of the written text back to the words as said', () => {
    const said = 'pay five hundred dollars today';
    const { text, original } = readAmounts(said);
    expect(text).to.equal('pay $500 today');
    expect(said.slice(original(text.indexOf('today')))).to.equal('today');
    expect(original(text.indexOf('$500'))).to.equal(said.indexOf('five'));
    expect(original(text.indexOf('$500') + 4)).to.equal(said.indexOf(' today'));
  });
});
