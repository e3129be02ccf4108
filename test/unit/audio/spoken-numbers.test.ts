import { expect } from 'chai';
import { spokenNumbersToDigits } from '../../../src/audio/spoken-numbers.js';

describe('audio/spoken-numbers', () => {
  it('writes spoken digits as digits, "oh" included', () => {
    expect(spokenNumbersToDigits('call us back at two oh two five five five one two three four')).to.equal(
      'call us back at 2025551234',
    );
  });

  it('writes amounts as a cloud recogniser does', () => {
    expect(spokenNumbersToDigits('you owe five hundred dollars', 'en-US')).to.equal('you owe $500');
    expect(spokenNumbersToDigits('fifty percent off', 'en-US')).to.equal('50% off');
  });

  it('leaves ordinary words alone', () => {
    expect(spokenNumbersToDigits('oh I went to the bank for one thing')).to.equal(
      'oh I went to the bank for one thing',
    );
  });

  it('leaves other languages as recognised', () => {
    expect(spokenNumbersToDigits('dos cero dos', 'es-US')).to.equal('dos cero dos');
    expect(spokenNumbersToDigits('two oh two five', 'es')).to.equal('two oh two five');
  });
});
