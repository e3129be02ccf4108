import { expect } from 'chai';
import { countIntel } from '../../../src/domain/intel.js';
import {
  abaValid,
  base58CheckBitcoin,
  bech32Bitcoin,
  ethereumAddress,
  luhnValid,
} from '../../../src/rules/intel/checksums.js';
import { extractIntel } from '../../../src/rules/intel/extract.js';
import { findLexicon, PAYMENT_APPS, type LexEntry } from '../../../src/rules/intel/lexicons.js';
import { digitizeSpoken, unspeakAddresses } from '../../../src/rules/intel/spoken.js';
import { scoreText } from '../../../src/rules/index.js';

describe('rules/intel: spoken forms', () => {
  it('turns spoken digits into digits, with oh, double and triple', () => {
    expect(digitizeSpoken('call two oh two five five five oh one four seven now')).to.equal('call 2025550147 now');
    expect(digitizeSpoken('two oh two, triple five, oh one four seven')).to.equal('2025550147');
    expect(digitizeSpoken('double oh seven')).to.equal('007');
    expect(digitizeSpoken('eight hundred five five five')).to.equal('800555');
  });

  it('leaves prose alone: short runs and edge words are not digits', () => {
    expect(digitizeSpoken('one or two of them')).to.equal('one or two of them');
    expect(digitizeSpoken('oh, hi there, I have two kids')).to.equal('oh, hi there, I have two kids');
    expect(digitizeSpoken('send it to me for free')).to.equal('send it to me for free');
    expect(digitizeSpoken('call 469-678-2463')).to.equal('call 469-678-2463');
  });

  it('turns spoken e-mail and web addresses into written ones', () => {
    expect(unspeakAddresses('write to john dot smith at gmail dot com today')).to.equal(
      'write to john.smith@gmail.com today',
    );
    expect(unspeakAddresses('go to secure dash help dot com')).to.equal('go to secure-help.com');
    expect(unspeakAddresses('meet me at the dot on the map')).to.equal('meet me at the dot on the map');
  });
});

describe('rules/intel: checksums', () => {
  it('Luhn', () => {
    expect(luhnValid('4111111111111111')).to.equal(true);
    expect(luhnValid('5555555555554444')).to.equal(true);
    expect(luhnValid('4111111111111112')).to.equal(false);
    expect(luhnValid('41111')).to.equal(false);
  });
  it('ABA routing numbers', () => {
    expect(abaValid('021000021')).to.equal(true);
    expect(abaValid('011000015')).to.equal(true);
    expect(abaValid('021000022')).to.equal(false);
    expect(abaValid('123456789')).to.equal(false);
    expect(abaValid('000000000')).to.equal(false);
  });
  it('Bitcoin Base58Check (P2PKH, P2SH) and bech32', () => {
    expect(base58CheckBitcoin('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).to.equal(true);
    expect(base58CheckBitcoin('3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy')).to.equal(true);
    expect(base58CheckBitcoin('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb')).to.equal(false);
    expect(bech32Bitcoin('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).to.equal(true);
    expect(bech32Bitcoin('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdz')).to.equal(false);
  });
  it('Ethereum shape', () => {
    expect(ethereumAddress('0x52908400098527886E0F7030069857D2E4169EE7')).to.equal(true);
    expect(ethereumAddress('0x5290840009852788')).to.equal(false);
    expect(ethereumAddress('0x0000000000000000000000000000000000000000')).to.equal(false);
  });
});

describe('rules/intel: lexicons', () => {
  const naive = (text: string, lex: readonly LexEntry[]): string[] => [
    ...new Set(lex.filter((e) => e.re.test(text)).map((e) => e.label)),
  ];

  it('finds entries that overlap or sit inside another entry’s match, in lexicon order', () => {
    const text = 'Go to the BITCOIN ATM, or send it by PayPal; no, zelle it, then the bitcoin machine again';
    expect(findLexicon(text, PAYMENT_APPS)).to.deep.equal(['Zelle', 'PayPal', 'Bitcoin ATM', 'Bitcoin']);
    expect(findLexicon(text, PAYMENT_APPS)).to.deep.equal(naive(text, PAYMENT_APPS));
  });

  it('matches whole words only, and finds nothing in a text without entries', () => {
    expect(findLexicon('the azelle and venmos of btcx', PAYMENT_APPS)).to.deep.equal([]);
    expect(findLexicon('', PAYMENT_APPS)).to.deep.equal([]);
  });

  it('gives one label once, whichever of its spellings was said', () => {
    const lex = [
      { label: 'A', re: /\b(?:ab)\b/i },
      { label: 'B', re: /\b(?:ab c)\b/i },
      { label: 'A', re: /\b(?:c)\b/i },
    ];
    expect(findLexicon('ab c', lex)).to.deep.equal(['A', 'B']);
    expect(findLexicon('c then ab', lex)).to.deep.equal(['A']);
  });

  it('finds an entry that starts inside a longer entry’s match', () => {
    const lex = [
      { label: 'long', re: /\b(?:call the bank)\b/i },
      { label: 'bank', re: /\b(?:bank)\b/i },
    ];
    expect(findLexicon('please call the bank now', lex)).to.deep.equal(['long', 'bank']);
  });
});

describe('rules/intel: extraction', () => {
  it('callback numbers, written and spoken, in E.164', () => {
    expect(extractIntel('Call me back at two oh two five five five oh one four seven.').callback_numbers).to.deep.equal(
      ['+12025550147'],
    );
    expect(extractIntel('call 1-800-555-0199 or (202) 555-0143').callback_numbers).to.deep.equal([
      '+18005550199',
      '+12025550143',
    ]);
    expect(extractIntel('our UK line is +44 20 7946 0958').callback_numbers).to.deep.equal(['+442079460958']);
  });

  it('near misses are not callback numbers: case numbers, badges, short or invalid numbers', () => {
    expect(extractIntel('your case number is 2025550147').callback_numbers).to.equal(undefined);
    expect(extractIntel('call 555-212-9988').callback_numbers).to.equal(undefined); // 555 is no area code
    expect(extractIntel('I was born in nineteen eighty two').callback_numbers).to.equal(undefined);
  });

  it('e-mails and URLs, written and spoken', () => {
    const i = extractIntel(
      'Email support@micr0soft-help.com or john dot smith at gmail dot com, and visit https://amzn-refund.co/claim or secure dash help dot com.',
    );
    expect(i.emails).to.deep.equal(['support@micr0soft-help.com', 'john.smith@gmail.com']);
    expect(i.urls).to.deep.equal(['https://amzn-refund.co/claim', 'secure-help.com']);
    expect(extractIntel('I love dogs. Then we went home.').urls).to.equal(undefined);
  });

  it('crypto wallets with valid checksums only', () => {
    const i = extractIntel(
      'Send it to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq or 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa or 0x52908400098527886E0F7030069857D2E4169EE7, not 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb.',
    );
    expect(i.crypto_wallets).to.deep.equal([
      'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      '0x52908400098527886E0F7030069857D2E4169EE7',
    ]);
  });

  it('bank routing (ABA-checked) and account numbers, cards (Luhn-checked)', () => {
    const i = extractIntel(
      'The routing number is 021000021 and the account number is 4021887766. Card 4111 1111 1111 1111.',
    );
    expect(i.bank_accounts).to.deep.equal(['routing 021000021', 'account 4021887766']);
    expect(i.card_numbers).to.deep.equal(['4111111111111111']);
    const miss = extractIntel('routing number 123456789, card 4111 1111 1111 1112');
    expect(miss.bank_accounts).to.equal(undefined);
    expect(miss.card_numbers).to.equal(undefined);
  });

  it('a spoken card number is read too', () => {
    const i = extractIntel('my card is four one one one, one one one one, one one one one, one one one one');
    expect(i.card_numbers).to.deep.equal(['4111111111111111']);
  });

  it('gift card brands, payment rails and remote tools with their codes', () => {
    const i = extractIntel(
      'Buy Google Play cards and Apple gift cards, or pay with Zelle, Cash App, Western Union or at a Bitcoin ATM. Download AnyDesk; my AnyDesk ID is 482 913 775.',
    );
    expect(i.gift_card_brands).to.deep.equal(['Google Play', 'Apple']);
    expect(i.payment_apps).to.include.members(['Zelle', 'Cash App', 'Western Union', 'Bitcoin ATM']);
    expect(i.remote_tools).to.deep.equal(['AnyDesk']);
    expect(i.remote_codes).to.deep.equal(['482913775']);
    expect(extractIntel('I bought a Visa card at Target').gift_card_brands).to.equal(undefined);
  });

  it('case and badge numbers', () => {
    const i = extractIntel('Your case number is SSA-4471-B and my badge number is 8812.');
    expect(i.case_numbers).to.deep.equal(['SSA-4471-B', '8812']);
  });

  it('amounts, written and spoken', () => {
    expect(extractIntel('pay $1,499.99 or two hundred fifty dollars or 300 dollars').amounts).to.deep.equal([
      '$1,499.99',
      '$300',
      '$250',
    ]);
    expect(extractIntel('I have two dogs').amounts).to.equal(undefined);
  });

  it('street addresses', () => {
    expect(extractIntel('Mail it to 1600 Pennsylvania Avenue, Washington, DC 20500.').addresses).to.deep.equal([
      '1600 Pennsylvania Avenue, Washington, DC 20500',
    ]);
    expect(extractIntel('we have 2 kids and a dog').addresses).to.equal(undefined);
  });

  it('names and organisations', () => {
    const i = extractIntel(
      'This is Officer James Miller from the Social Security Administration. My name is Daniel Brooks.',
    );
    expect(i.names).to.deep.equal(['Officer James Miller', 'Daniel Brooks']);
    expect(i.organizations).to.deep.equal(['Social Security Administration']);
    expect(extractIntel('I am calling from Global Tech Support Services.').organizations).to.deep.equal([
      'Global Tech Support Services',
    ]);
    expect(extractIntel('this is just a test, I am fine').names).to.equal(undefined);
  });

  it('scripts are the caller’s own pitch lines, and intel_count counts distinct facts', () => {
    const text = 'You will be arrested today. Pay with Google Play gift cards. Call 202-555-0147.';
    const { intel } = scoreText(text);
    expect(intel.scripts).to.include('You will be arrested today');
    for (const line of intel.scripts ?? []) expect(text).to.include(line);
    const n = (intel.scripts?.length ?? 0) + 1 /* number */ + 1 /* brand */ + (intel.payment_apps?.length ?? 0);
    expect(countIntel(intel)).to.equal(n);
  });
});

describe('rules: pathological input stays linear', function () {
  this.timeout(30_000);
  const inputs: Record<string, string> = {
    'dotted labels': 'ab.'.repeat(30_000),
    dashes: 'a-'.repeat(30_000),
    'dollar fragments': '$1,'.repeat(30_000),
    'spoken digits': 'one two three '.repeat(15_000),
    'spoken dots': 'a dot '.repeat(30_000),
    'digits and spaces': '1 2 '.repeat(30_000),
  };
  for (const [name, text] of Object.entries(inputs)) {
    it(`${name} (${text.length} characters)`, () => {
      const t0 = process.hrtime.bigint();
      const { intel } = scoreText(text);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      expect(ms, `${name} took ${Math.round(ms)} ms`).to.be.below(5000);
      for (const values of Object.values(intel)) if (Array.isArray(values)) expect(values.length).to.be.at.most(50);
    });
  }
});
