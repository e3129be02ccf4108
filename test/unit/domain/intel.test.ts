import { expect } from 'chai';
import { countIntel, mergeIntel } from '../../../src/domain/intel.js';

describe('domain/intel', () => {
  it('merges one fact once, whatever its case, spacing or trailing punctuation; the first form is kept', () => {
    const merged = mergeIntel(
      { scripts: ['Do not tell anyone', 'This is the IRS'] },
      { scripts: ['Do not tell anyone.', 'this is  the IRS!', 'Pay today.'], names: ['Kevin'] },
    );
    expect(merged.scripts).to.deep.equal(['Do not tell anyone', 'This is the IRS', 'Pay today.']);
    expect(countIntel(merged)).to.equal(4);
  });

  it('keeps facts that differ inside the text', () => {
    const merged = mergeIntel({ amounts: ['$500', '$5000'], urls: ['a.example/x', 'a.example/y'] });
    expect(merged.amounts).to.have.length(2);
    expect(merged.urls).to.have.length(2);
  });

  it('joins DTMF digits in order and counts them as one fact', () => {
    const merged = mergeIntel({ dtmf: '12' }, { dtmf: '#' });
    expect(merged.dtmf).to.equal('12#');
    expect(countIntel(merged)).to.equal(1);
  });
});
