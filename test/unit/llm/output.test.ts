import { expect } from 'chai';
import {
  extractJson,
  MalformedOutput,
  repairAnalysis,
  repairAssessment,
  repairCategory,
} from '../../../src/providers/llm/output.js';

describe('model output validation and repair', () => {
  it('keeps a valid assessment as it is', () => {
    const a = {
      score: 0.7,
      category: 'Phishing',
      tactics: ['otp_request'],
      signals: ['"read me the code"'],
      summary: 'Asks for a code.',
    };
    expect(repairAssessment(a)).to.deep.equal(a);
  });

  it('clamps scores and reads numeric strings', () => {
    expect(repairAssessment({ score: 3, category: 'none' }).score).to.equal(1);
    expect(repairAssessment({ score: -0.2, category: 'none' }).score).to.equal(0);
    expect(repairAssessment({ score: '0.42', category: 'none' }).score).to.equal(0.42);
  });

  it('maps near-miss categories to the exact strings and rejects invented ones', () => {
    expect(repairCategory('computer & technical support')).to.equal('Computer & Technical Support');
    expect(repairCategory('Bank / Credit Card Company Imposter')).to.equal('Bank/Credit Card Company Imposter');
    expect(repairCategory('Reducing Your Debt')).to.equal('Reducing Your Debt (Credit Cards, Mortgage, Student Loans)');
    expect(repairCategory('COVID 19')).to.equal('COVID-19');
    expect(repairCategory('None')).to.equal('none');
    expect(repairCategory('clean')).to.equal('none');
    expect(() => repairCategory('Alien Abduction')).to.throw(MalformedOutput);
    // A prefix shared by two subjects is ambiguous, not a match.
    expect(() => repairCategory('Credit')).to.throw(MalformedOutput);
    expect(() => repairCategory(42)).to.throw(MalformedOutput);
  });

  it('drops unknown tactics and normalises spelling', () => {
    const a = repairAssessment({
      score: 0.9,
      category: 'Phishing',
      tactics: ['OTP request', 'remote-access', 'hypnosis', 7],
    });
    expect(a.tactics).to.deep.equal(['otp_request', 'remote_access']);
  });

  it('caps signals and the summary at two sentences', () => {
    const a = repairAssessment({
      score: 0.9,
      category: 'Phishing',
      signals: Array.from({ length: 20 }, (_, i) => `signal ${i}`),
      summary: 'One. Two. Three.',
    });
    expect(a.signals).to.have.length(8);
    expect(a.summary).to.equal('One. Two.');
  });

  it('rejects what is not an object or has no score', () => {
    for (const raw of [null, 'text', [1, 2], { category: 'none' }, { score: 'high', category: 'none' }]) {
      expect(() => repairAssessment(raw), JSON.stringify(raw)).to.throw(MalformedOutput);
    }
  });

  it('keeps only spec intel fields, E.164 callback numbers included', () => {
    const a = repairAnalysis({
      score: 0.9,
      category: 'Phishing',
      intel: {
        callback_numbers: ['+1 (888) 555-0199', '555-0199'],
        emails: ['a@b.co', ''],
        passwords: ['x'],
        dtmf: '123',
      },
    });
    expect(a.intel).to.deep.equal({ callback_numbers: ['+18885550199'], emails: ['a@b.co'] });
  });

  it('finds JSON bare, fenced, or inside prose', () => {
    expect(extractJson('{"score":1}')).to.deep.equal({ score: 1 });
    expect(extractJson('```json\n{"score":1}\n```')).to.deep.equal({ score: 1 });
    expect(extractJson('Result: {"score":1,"s":"a } b"} done')).to.deep.equal({ score: 1, s: 'a } b' });
    expect(() => extractJson('no json here')).to.throw(MalformedOutput);
  });
});
