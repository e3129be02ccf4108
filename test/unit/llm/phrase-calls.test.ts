import { expect } from 'chai';
import { finalAnalysis } from '../../../pipelines/final-analysis.js';
import { LIKELY_SCAM_AT, SCAM_AT } from '../../../src/domain/levels.js';
import { loadJsonl, type EvalRecord } from '../../../src/eval/datasets.js';
import { createLocalProvider } from '../../../src/providers/llm/local/provider.js';
import { callerText, parseTranscript } from '../../../src/rules/index.js';

/*
 * Fifty written calls (never trained on; read while the one-tactic cap was made): thirty honest calls in
 * which friends, family, clinics, banks and support desks say a scam's words in passing ("Venmo me",
 * "confirm your date of birth", "don't hang up, I'm transferring you"), and twenty scams. Before the cap
 * ten of the honest ones scored `scam`, which with `report=true` files an honest number service-wide.
 */
const CALLS = loadJsonl('test/fixtures/phrase-calls.jsonl', 'phrase-calls');

describe('final analysis with the embedded model: calls that say a scam’s words', () => {
  const llm = createLocalProvider();
  const score = async (c: EvalRecord) => {
    const utterances = parseTranscript(c.transcript);
    const input = { utterances, callerText: callerText(utterances), product: 'scan' as const };
    return (await finalAnalysis(input, llm, new AbortController().signal)).verdict.score;
  };

  it('files no honest call, and warns on at most two of thirty', async () => {
    const honest = CALLS.filter((c) => c.label === 'legit');
    expect(honest).to.have.length(30);
    const scores = await Promise.all(honest.map(score));
    honest.forEach((c, i) => expect(scores[i], c.id).to.be.below(SCAM_AT));
    expect(scores.filter((s) => s >= LIKELY_SCAM_AT).length).to.be.at.most(2);
  });

  it('warns on every scam and files most', async () => {
    const scams = CALLS.filter((c) => c.label === 'scam');
    expect(scams).to.have.length(20);
    const scores = await Promise.all(scams.map(score));
    scams.forEach((c, i) => expect(scores[i], c.id).to.be.at.least(LIKELY_SCAM_AT));
    expect(scores.filter((s) => s >= SCAM_AT).length).to.be.at.least(16);
  });
});
