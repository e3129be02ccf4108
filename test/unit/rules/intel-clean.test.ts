import { expect } from 'chai';
import { readFixture } from '../../helpers/fixtures.js';
import { complaintComment } from '../../../src/domain/complaint.js';
import { countIntel, mergeIntel } from '../../../src/domain/intel.js';
import { canonicalIntel, extractIntel } from '../../../src/rules/intel/extract.js';
import { digitizeSpoken } from '../../../src/rules/intel/spoken.js';
import { callerText, createRuleScorer, parseTranscript, scoreText } from '../../../src/rules/index.js';

/** What the final analysis reads: the caller's utterances, one a line. */
const caller = (transcript: string) => callerText(parseTranscript(transcript));

describe('rules/intel: one clean entry per organisation and name', () => {
  it('never reads an organisation across two utterances', () => {
    const text = caller(
      'caller: I am calling from the Internal Revenue Service.\ncaller: Our records show you owe back taxes.',
    );
    expect(extractIntel(text).organizations).to.deep.equal(['IRS']);
  });

  it('gives one canonical entry however the organisation was named', () => {
    const i = extractIntel('I am calling from the Internal Revenue Service, the IRS, about a lawsuit against you.');
    expect(i.organizations).to.deep.equal(['IRS']);
    const ssa = extractIntel('Calling from the Department of Social Security Administration, your SSA number.');
    expect(ssa.organizations).to.deep.equal(['Social Security Administration']);
    expect(extractIntel("Hi there, I'm calling you from AT&T Direct TV to let you know").organizations).to.deep.equal([
      'AT&T',
      'DirecTV',
    ]);
  });

  it('cuts a name at the end of its sentence and keeps no punctuation', () => {
    expect(
      extractIntel('I am calling from the Dealer Service Center. We recently noticed your warranty.').organizations,
    ).to.deep.equal(['Dealer Service Center']);
    expect(
      extractIntel('This call is from Global Tech Support, Inc. about your computer.').organizations,
    ).to.deep.equal(['Global Tech Support']);
    expect(
      extractIntel('I am calling on behalf of the U.S. Center for Debt Relief with an update.').organizations,
    ).to.deep.equal(['U.S. Center for Debt Relief']);
  });

  it('a gift card, a payment rail or a product is not an organisation the caller claims', () => {
    const gift = extractIntel('Go to the store and buy Apple gift cards and Google Play cards.');
    expect(gift.organizations).to.equal(undefined);
    expect(gift.gift_card_brands).to.deep.equal(['Google Play', 'Apple']);
    expect(extractIntel('You can pay the fee through Cash App or with PayPal.').organizations).to.equal(undefined);
    expect(extractIntel('This is Ami from Cash App Support about your account.').organizations).to.deep.equal([
      'Cash App',
    ]);
    expect(
      extractIntel('An order for an Apple MacBook Pro was placed on your Amazon account.').organizations,
    ).to.deep.equal(['Amazon']);
  });

  it('names come from introductions only when they are names', () => {
    expect(extractIntel('This is Chase Bank fraud department calling.').names).to.equal(undefined);
    expect(extractIntel("Hello, it's Friday and this is Customer Service.").names).to.equal(undefined);
    expect(extractIntel('This is Social Security Administration.').names).to.equal(undefined);
    expect(extractIntel("Hi, it's Emma Miller on Friday, February 3rd.").names).to.deep.equal(['Emma Miller']);
  });

  it('reads introductions a recogniser wrote in lower case', () => {
    expect(extractIntel('hi this is lily with the processing center').names).to.deep.equal(['Lily']);
    expect(extractIntel('my name is officer david brown from the sheriffs office').names).to.deep.equal([
      'Officer David Brown',
    ]);
    expect(extractIntel('this is your final notice from the department').names).to.equal(undefined);
    expect(extractIntel('my name is not important right now').names).to.equal(undefined);
  });

  it('counts each fact once and files it once: the live scorer, the final analysis and the complaint agree', () => {
    const transcript =
      'caller: I am calling from the Internal Revenue Service.\n' +
      'callee: Who is this?\n' +
      'caller: This is Officer John Miller. Our records show you owe back taxes to the IRS.\n' +
      'caller: Pay with Apple gift cards and call me back at two oh two, five five five, oh one four seven.';
    const text = caller(transcript);
    const final = scoreText(text).intel;
    const live = createRuleScorer();
    for (const u of parseTranscript(transcript)) if (u.role === 'caller') live.push(u.text);
    const intel = mergeIntel(final, live.intel());
    expect(intel.organizations).to.deep.equal(['IRS']);
    expect(intel.names).to.deep.equal(['Officer John Miller']);
    expect(intel.gift_card_brands).to.deep.equal(['Apple']);
    expect(intel.callback_numbers).to.deep.equal(['+12025550147']);
    const facts = 4 + (intel.scripts?.length ?? 0) + (intel.payment_apps?.length ?? 0);
    expect(countIntel(intel)).to.equal(facts);
    const comment = complaintComment({ summary: 'IRS imposter', signals: [], score: 0.99 }, intel);
    expect(comment).to.include('Organizations: IRS\n');
    expect(comment).to.include('Names: Officer John Miller\n');
    expect(comment.split('\n').filter((l) => l.startsWith('Organizations'))).to.have.length(1);
  });
});

describe('rules/intel: another extractor’s organisations', () => {
  it('a remote model’s organisations take the rules’ canonical form, so one organisation is one fact', () => {
    const model = canonicalIntel({
      organizations: ['Internal Revenue Service.', 'the Acme Support Center,', 'AT&T DirecTV'],
      names: ['John'],
    });
    expect(model?.organizations).to.deep.equal(['IRS', 'Acme Support Center', 'AT&T', 'DirecTV']);
    const merged = mergeIntel({ organizations: ['IRS', 'DirecTV'] }, model);
    expect(merged.organizations).to.deep.equal(['IRS', 'DirecTV', 'Acme Support Center', 'AT&T']);
    expect(countIntel(merged)).to.equal(5);
    expect(canonicalIntel(undefined)).to.equal(undefined);
  });
});

describe('rules/intel: stated callback numbers', () => {
  interface Line {
    id: string;
    text: string;
    numbers: string[];
  }
  const lines = readFixture<Line>('callback-lines.jsonl');

  it('finds at least 95 % of the numbers stated in realistic lines, and none that were not stated', () => {
    let stated = 0;
    let found = 0;
    const extra: string[] = [];
    for (const l of lines) {
      const got = extractIntel(l.text).callback_numbers ?? [];
      stated += l.numbers.length;
      found += l.numbers.filter((n) => got.includes(n)).length;
      extra.push(...got.filter((n) => !l.numbers.includes(n)).map((n) => `${l.id}: ${n}`));
    }
    expect(stated).to.be.at.least(40);
    expect(found / stated, `${found}/${stated}`).to.be.at.least(0.95);
    expect(extra).to.deep.equal([]);
  });

  it('numbers read in pairs, and a pair of words stays words when it is no phone number', () => {
    expect(
      extractIntel('our number is eight seventy seven, five fifty five, oh one eighty eight').callback_numbers,
    ).to.deep.equal(['+18775550188']);
    expect(digitizeSpoken('I was born in nineteen eighty two')).to.equal('I was born in nineteen eighty two');
    expect(digitizeSpoken('we have twenty five of them')).to.equal('we have twenty five of them');
  });

  it('a spoken country code and a number ending in "oh"', () => {
    expect(
      extractIntel('call plus four four two oh seven nine four six oh nine five eight').callback_numbers,
    ).to.deep.equal(['+442079460958']);
    expect(extractIntel('call six one seven five five five oh one two oh').callback_numbers).to.deep.equal([
      '+16175550120',
    ]);
  });

  it('the number on the back of a card is a number to call; the card number is not', () => {
    expect(extractIntel('call the number on the back of your card 1 800 555 0143').callback_numbers).to.deep.equal([
      '+18005550143',
    ]);
    expect(extractIntel('your card 2025550147 was charged').callback_numbers).to.equal(undefined);
  });

  it('a toll-free word run into the number it introduces', () => {
    expect(extractIntel('Call our car at 800-833-304-1447.').callback_numbers).to.deep.equal(['+18333041447']);
    expect(
      extractIntel(
        'or call our eight hundred number at eight zero zero eight three three three zero four one four four seven',
      ).callback_numbers,
    ).to.deep.equal(['+18333041447']);
    expect(extractIntel('your tracking number is 1Z 999 555 0147 2231').callback_numbers).to.equal(undefined);
  });
});
