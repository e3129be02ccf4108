import { expect } from 'chai';
import { combine } from '../../../src/domain/combine.js';
import type { Assessment } from '../../../src/domain/verdict.js';

const a = (score: number, category: Assessment['category'] = 'Tax Collection', summary?: string): Assessment => ({
  score,
  category,
  tactics: score >= 0.3 ? ['threat'] : [],
  signals: [`s${score}`],
  summary,
});

describe('combine (rules with a model)', () => {
  it('names its source: heuristic, llm or combined', () => {
    expect(combine(null, null)).to.equal(null);
    expect(combine(a(0.7), null)!.source).to.equal('heuristic');
    expect(combine(null, a(0.7))!.source).to.equal('llm');
    expect(combine(a(0.7), a(0.7))!.source).to.equal('combined');
  });

  it('never lets the rules lower a model score', () => {
    expect(combine(a(0.2), a(0.9))!.score).to.equal(0.9);
  });

  it('keeps confirmed rule evidence in the scam band when the model agrees (no averaging below 0.85)', () => {
    const v = combine(a(0.9), a(0.8))!;
    expect(v.score).to.equal(0.9);
    expect(v.level).to.equal('scam');
  });

  it('does not let a model that says clean lower the rules: its clean is no evidence on a source it never saw', () => {
    expect(combine(a(0.9), a(0.29))!.score).to.equal(0.9);
    expect(combine(a(0.95), a(0.2))!.score).to.equal(0.95);
    expect(combine({ ...a(0.9), tactics: ['urgency'] }, a(0.05))!.level).to.equal('scam');
  });

  it('lets the rules stand over a model that flagged the call but capped its score', () => {
    // The embedded model keeps one kind of evidence `suspicious`; the rules read it in context.
    expect(combine(a(0.9), a(0.45))!.score).to.equal(0.9);
    expect(combine(a(0.9), a(0.3))!.level).to.equal('scam');
  });

  it('keeps a clean call clean when neither scorer found anything', () => {
    const v = combine(a(0.05, 'none'), a(0.1, 'none'))!;
    expect(v.score).to.equal(0.1);
    expect(v.level).to.equal('clean');
    expect(v.category).to.equal('none');
  });

  it('takes the category of the scorer whose score stands', () => {
    expect(combine(a(0.9, 'Lotteries, Prizes & Sweepstakes'), a(0.45, 'Advertising'))!.category).to.equal(
      'Lotteries, Prizes & Sweepstakes',
    );
  });

  it('takes the model category unless it said none while the rules named one', () => {
    expect(combine(a(0.7, 'Tax Collection'), a(0.8, 'Phishing'))!.category).to.equal('Phishing');
    expect(combine(a(0.7, 'Tax Collection'), a(0.1, 'none'))!.category).to.equal('Tax Collection');
  });

  it('keeps the model summary and the rules signals first', () => {
    const v = combine(a(0.7), a(0.8, 'Tax Collection', 'Caller claims to be the tax office. Demands gift cards.'))!;
    expect(v.summary).to.equal('Caller claims to be the tax office. Demands gift cards.');
    expect(v.signals[0]).to.equal('s0.7');
  });
});
