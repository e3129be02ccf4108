import { expect } from 'chai';
import { CATEGORIES, NEVER_FILED } from '../../../src/domain/categories.js';
import { complaintComment } from '../../../src/domain/complaint.js';
import { filingDecision, filingThreshold } from '../../../src/domain/filing.js';
import { levelOf } from '../../../src/domain/levels.js';
import { toVerdict } from '../../../src/domain/verdict.js';

describe('domain: verdict bands', () => {
  const cases: Array<[number, string]> = [
    [0, 'clean'],
    [0.29999, 'clean'],
    [0.3, 'suspicious'],
    [0.59, 'suspicious'],
    [0.59999, 'suspicious'],
    [0.6, 'likely_scam'],
    [0.84, 'likely_scam'],
    [0.84999, 'likely_scam'],
    [0.85, 'scam'],
    [1, 'scam'],
  ];
  for (const [score, level] of cases) {
    it(`${score} is ${level}`, () => expect(levelOf(score)).to.equal(level));
  }

  it('a verdict rounds to three decimals first, so 0.84999 on the wire is 0.85 and scam', () => {
    const v = toVerdict({ score: 0.84999, category: 'Utility', tactics: [], signals: [] }, 'heuristic');
    expect(v.score).to.equal(0.85);
    expect(v.level).to.equal('scam');
    const w = toVerdict({ score: 0.2999, category: 'none', tactics: [], signals: [] }, 'heuristic');
    expect(w.level).to.equal('suspicious');
  });
});

describe('domain: filing conditions', () => {
  const from = '+15125550100';
  const intel = { callback_numbers: ['+12025550147'] };
  const scam = { score: 0.85, category: 'Tax Collection' as const };

  it('files the caller and every callback number at 0.85 on the filter and scan', () => {
    expect(filingDecision('filter', true, scam, from, intel)).to.deep.equal([from, '+12025550147']);
    expect(filingDecision('scan', true, scam, from, intel)).to.deep.equal([from, '+12025550147']);
  });

  it('files nothing without report=true', () => {
    expect(filingDecision('filter', false, scam, from, intel)).to.deep.equal([]);
    expect(filingDecision('honeypot', false, { score: 0.99, category: 'Utility' }, from, intel)).to.deep.equal([]);
  });

  it('needs 0.85 on the filter and scan, 0.8 on the honeypot', () => {
    expect(filingDecision('filter', true, { score: 0.849, category: 'Utility' }, from, intel)).to.deep.equal([]);
    expect(filingDecision('scan', true, { score: 0.849, category: 'Utility' }, from, intel)).to.deep.equal([]);
    expect(filingDecision('honeypot', true, { score: 0.8, category: 'Utility' }, from, intel)).to.have.length(2);
    expect(filingDecision('honeypot', true, { score: 0.799, category: 'Utility' }, from, intel)).to.deep.equal([]);
  });

  it('`Other` needs 0.85 on every product, the honeypot included', () => {
    expect(filingThreshold('honeypot', 'Other')).to.equal(0.85);
    expect(filingDecision('honeypot', true, { score: 0.84, category: 'Other' }, from, intel)).to.deep.equal([]);
    expect(filingDecision('honeypot', true, { score: 0.85, category: 'Other' }, from, intel)).to.have.length(2);
  });

  it('never files none, Advertising, Surveys, Hang Up or No Subject Provided, whatever the score', () => {
    for (const category of ['none', 'Advertising', 'Surveys', 'Hang Up', 'No Subject Provided'] as const) {
      expect(NEVER_FILED.has(category)).to.equal(true);
      for (const product of ['filter', 'honeypot', 'scan'] as const) {
        expect(filingDecision(product, true, { score: 1, category }, from, intel)).to.deep.equal([]);
      }
    }
  });

  it('files every other subject once the threshold is met', () => {
    for (const category of CATEGORIES.filter((c) => !NEVER_FILED.has(c))) {
      expect(filingDecision('scan', true, { score: 0.9, category }, from, {})).to.deep.equal([from]);
    }
  });

  it('needs a number: `from` in E.164 with +, or a callback number', () => {
    expect(filingDecision('scan', true, scam, undefined, {})).to.deep.equal([]);
    expect(filingDecision('scan', true, scam, '15125550100', {})).to.deep.equal([]);
    expect(filingDecision('scan', true, scam, undefined, intel)).to.deep.equal(['+12025550147']);
    expect(filingDecision('scan', true, scam, '+12025550147', intel)).to.deep.equal(['+12025550147']);
  });

  it('a complaint comment holds the summary (or the signals) and the intel', () => {
    const c = complaintComment(
      { summary: 'Caller posed as the IRS.', signals: ['x'], score: 0.9 },
      { callback_numbers: ['+12025550147'], gift_card_brands: ['Google Play'], dtmf: '1' },
    );
    expect(c).to.equal(
      'Caller posed as the IRS.\nCallback numbers: +12025550147\nGift cards: Google Play\nKeys pressed: 1',
    );
    expect(complaintComment({ signals: ['threat: "you will be arrested"'], score: 0.9 }, {})).to.equal(
      'threat: "you will be arrested"',
    );
  });
});
