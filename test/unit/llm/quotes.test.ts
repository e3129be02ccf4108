import { expect } from 'chai';
import { keepCallerQuotes, quotesOf } from '../../../src/providers/llm/quotes.js';

const said = 'Hello, this is the IRS.\nYou must pay today with Google Play gift cards, or officers will arrest you!';
const base = { category: 'Tax Collection' as const, tactics: [] };

describe('caller quotes in signals', () => {
  it('finds the quoted parts of a signal', () => {
    expect(quotesOf('asks for "gift cards" and “arrest”')).to.deep.equal(['gift cards', 'arrest']);
    expect(quotesOf('no quote here')).to.deep.equal([]);
  });

  it('above 0.6 keeps only signals whose quotes the caller said, ignoring case and punctuation', () => {
    const a = keepCallerQuotes(said, {
      ...base,
      score: 0.9,
      signals: [
        '"pay today with Google Play gift cards"',
        'threat: "officers will ARREST you"',
        '"wire the money to Nigeria"',
        'demands gift cards',
      ],
    });
    expect(a.signals).to.deep.equal(['"pay today with Google Play gift cards"', 'threat: "officers will ARREST you"']);
  });

  it('leaves lower scores alone', () => {
    const a = { ...base, score: 0.4, signals: ['demands gift cards'] };
    expect(keepCallerQuotes(said, a)).to.equal(a);
  });
});
