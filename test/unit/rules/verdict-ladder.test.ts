import { expect } from 'chai';
import { readFixture } from '../../helpers/fixtures.js';
import { from, lastValueFrom, toArray } from 'rxjs';
import { verdictGate, type ScoreUpdate } from '../../../operators/verdict-gate.js';
import { createRuleScorer, scoreOnly } from '../../../src/rules/index.js';

/**
 * Spec: "Expected volume: zero events on a clean call, two to five on a scam call." Realistic scams
 * escalate (a claim and a problem, then pressure, then the request), and the rule score should climb
 * with them, so the live gate sends the ladder rather than one jump. Rules only, as on a call before the
 * first model tick. The calls are tuning fixtures (test/fixtures/multi-turn-scams.jsonl), not held out.
 */
interface Call {
  id: string;
  caller: string[];
}
const CALLS = readFixture<Call>('multi-turn-scams.jsonl');

async function ladder(call: Call): Promise<{ scores: number[]; sent: number[] }> {
  const scorer = createRuleScorer();
  const updates: ScoreUpdate[] = call.caller.map((t) => ({ from: 'rules', assessment: scorer.push(t) }));
  const sent = await lastValueFrom(from(updates).pipe(verdictGate(), toArray()));
  return { scores: updates.map((u) => u.assessment.score), sent: sent.map((v) => v.score) };
}

describe('verdict volume on escalating scam calls (rules through the live gate)', () => {
  it('most calls send two to five verdicts, climbing through likely_scam before scam', async () => {
    const results = await Promise.all(CALLS.map(ladder));
    const report = CALLS.map(
      (c, i) => `${c.id}: ${results[i]!.scores.map((s) => s.toFixed(3)).join(' → ')} | sent ${results[i]!.sent.length}`,
    ).join('\n');
    if (process.env.LADDER_REPORT) console.log(report);
    const inRange = results.filter((r) => r.sent.length >= 2 && r.sent.length <= 5).length;
    expect(inRange, report).to.be.at.least(Math.ceil(CALLS.length * 0.75));
    for (const r of results) {
      expect(r.sent.length, report).to.be.within(1, 5);
      expect(Math.max(...r.scores), report).to.be.at.least(0.85);
    }
    const visitedLikely = results.filter((r) => r.sent.some((s) => s >= 0.6 && s < 0.85)).length;
    expect(visitedLikely, report).to.be.at.least(Math.ceil(CALLS.length * 0.75));
  });

  it('a claim and a problem without a request stay below a live event (a real fraud alert opens so too); the request makes it scam; an assurance keeps it clean', () => {
    const opening =
      'This is Kevin from the fraud department at Wells Fargo. We noticed a suspicious charge of eight hundred dollars on your debit card.';
    const claim = scoreOnly(opening).score;
    expect(claim).to.be.below(0.5);
    expect(scoreOnly(`${opening} Please read me the six digit code we just texted you.`).score).to.be.at.least(0.85);
    const honest = `${opening} We will never ask for your PIN or a code. Please call the number on the back of your card.`;
    expect(scoreOnly(honest).score).to.be.below(0.3);
  });

  it('threats without any request stop at likely_scam; a single utterance with everything is scam at once', () => {
    const threat = scoreOnly(
      'This is the Internal Revenue Service. An arrest warrant has been issued in your name and you will be arrested today.',
    ).score;
    expect(threat).to.be.at.least(0.6).and.at.most(0.8);
    expect(
      scoreOnly(
        'This is the IRS. An arrest warrant has been issued in your name. Pay the balance today with Target gift cards and read me the numbers.',
      ).score,
    ).to.be.at.least(0.85);
  });
});
