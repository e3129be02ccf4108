import { expect } from 'chai';
import { recognisedForm, spokenWords } from '../../../src/eval/spoken.js';

describe('spoken words of a written transcript', () => {
  it('drops speaker labels and punctuation, lower-cases', () => {
    expect(spokenWords('caller: Hello, this is the I.R.S.!\ncallee: Who?')).to.deep.equal([
      'hello',
      'this',
      'is',
      'the',
      'irs',
      'who',
    ]);
  });

  it('says amounts and short numbers as numbers, phone numbers digit by digit', () => {
    expect(spokenWords('Pay $1,500.50 by the 21st').join(' ')).to.equal(
      'pay one thousand five hundred dollars and fifty cents by the twenty first',
    );
    expect(spokenWords('call 1-800-555-0199 in 2024').join(' ')).to.equal(
      'call one eight zero zero five five five zero one nine nine in two thousand twenty four',
    );
  });

  it("renders a transcript as a mono recording's recogniser writes it, with the product's normalisation", () => {
    expect(
      recognisedForm('caller: Hi, this is the IRS. Pay $500 in gift cards, call 202-555-0147.\ncallee: OK.'),
    ).to.equal('hi this is the irs pay $500 in gift cards call 2025550147 ok');
  });
});
