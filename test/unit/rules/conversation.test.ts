import { expect } from 'chai';
import { readFixture } from '../../helpers/fixtures.js';
import fs from 'node:fs';
import { combine } from '../../../src/domain/combine.js';
import { LocalModel, type ModelArtefact } from '../../../src/providers/llm/local/model.js';
import { callerText, createRuleScorer, parseTranscript, scoreText } from '../../../src/rules/index.js';

/**
 * Calls that read like scams to a phrase matcher and are not, and scams that a phrase matcher misses:
 * each failure pattern of the conversation-blind model, as the shipped scorers (rules + embedded model,
 * combined) see them. The calls are test/fixtures/conversation-calls.jsonl (tuning fixtures; the
 * -holdout file beside it is never tuned on and is scored only by the evaluation's final part).
 */
interface Row {
  id: string;
  label: 'scam' | 'legit';
  category?: string;
  kind?: string;
  transcript: string;
}
const ROWS = readFixture<Row>('conversation-calls.jsonl');
const model = new LocalModel(
  JSON.parse(fs.readFileSync(new URL('../../../models/scamlr-v1.json', import.meta.url), 'utf8')) as ModelArtefact,
);
const row = (id: string) => ROWS.find((r) => r.id === id)!;
function verdict(id: string) {
  const text = callerText(parseTranscript(row(id).transcript));
  return combine(scoreText(text), model.assess(text))!;
}
/** Rules-only live scores, one caller line at a time (before the first model tick). */
function live(id: string): number[] {
  const scorer = createRuleScorer();
  return parseTranscript(row(id).transcript)
    .filter((u) => u.role === 'caller')
    .map((u) => scorer.push(u.text).score);
}

describe('conversation-aware verdicts', () => {
  it('0: the opening moves of live scam conversations are read, with or without speaker labels', () => {
    for (const id of ['cv-s01', 'cv-s03', 'cv-s04', 'cv-s15']) {
      expect(verdict(id).score, id).to.be.at.least(0.85);
    }
  });

  it('1: an assurance never erases a later request; asking after promising not to is a scam', () => {
    for (const id of ['cv-s05', 'cv-s18']) {
      const v = verdict(id);
      expect(v.score, id).to.be.at.least(0.85);
      expect(v.category, id).to.equal('Bank/Credit Card Company Imposter');
    }
  });

  it('2: a threat and a call-back demand in a recorded call is the request', () => {
    for (const id of ['cv-s06', 'cv-s07', 'cv-s16']) {
      expect(verdict(id).score, id).to.be.at.least(0.85);
      // The rules alone too: the no-request ceiling (0.8) does not hold a call-back demanded under threat.
      expect(scoreText(callerText(parseTranscript(row(id).transcript))).score, id).to.be.at.least(0.85);
    }
    expect(verdict('cv-s07').category).to.equal('Tax Collection');
  });

  it('3: pre-recorded sales pitches are at least suspicious with their subject; warranty and health-plan press-1 calls are scams', () => {
    for (const id of ['cv-s08', 'cv-s09']) expect(verdict(id).score, id).to.be.at.least(0.85);
    for (const id of ['cv-s08', 'cv-s09', 'cv-s10', 'cv-s11']) {
      const v = verdict(id);
      expect(v.score, id).to.be.at.least(0.3);
      expect(v.category, id).to.equal(row(id).category);
    }
  });

  it('4: single phrases in two-party family talk and stories about scam calls stay below likely_scam', () => {
    for (const id of ['cv-h03', 'cv-h04', 'cv-h05', 'cv-h06', 'cv-h09', 'cv-h12']) {
      expect(verdict(id).score, id).to.be.below(0.6);
    }
  });

  it('7: a real fraud alert and a support callback raise no live event and end clean', () => {
    for (const id of ['cv-h01', 'cv-h02', 'cv-h08', 'cv-h11']) {
      for (const s of live(id)) expect(s, id).to.be.below(0.5);
      expect(verdict(id).score, id).to.be.below(0.3);
    }
  });

  it('honest collectors and reminders stay clean; every written scam is at least likely_scam', () => {
    for (const r of ROWS) {
      if (r.label === 'legit') expect(verdict(r.id).score, r.id).to.be.below(0.6);
      else expect(verdict(r.id).score, r.id).to.be.at.least(0.3);
    }
    for (const id of ['cv-h07', 'cv-h10']) expect(verdict(id).score, id).to.be.below(0.3);
  });
});
