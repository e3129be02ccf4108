import { expect } from 'chai';
import { readFixture } from '../../helpers/fixtures.js';
import { finalAnalysis } from '../../../pipelines/final-analysis.js';
import { LIKELY_SCAM_AT, SCAM_AT } from '../../../src/domain/levels.js';
import { NO_ASK_CEILING, NO_REQUEST_CEILING } from '../../../src/rules/ladder.js';
import { callerText, callShape, parseTranscript, scoreText } from '../../../src/rules/index.js';

/**
 * What the caller asks, read in the context of the call's shape: a recorded call's "press 1" or
 * "call us back at …" is its request; in a two-way call it is how honest callers end a call, and
 * only a code, a payment or access is the request. Calls without speaker labels score as before.
 */
/**
 * test/fixtures/shape-calls.jsonl: two-way honest calls that leave a call-back number or a key to
 * press, and scams in each shape. Kept out of the evaluation's default sets: in the recognised form
 * (no speaker labels) its honest calls lose their shape and read as recorded calls with strong
 * evidence, which flattens every recognised-form fold's calibration. Written, they barely move it
 * (`voice eval --extra test/fixtures/shape-calls.jsonl` scores them).
 */
interface Row {
  id: string;
  label: 'scam' | 'legit';
  transcript: string;
}
const ROWS = readFixture<Row>('shape-calls.jsonl');
const lines = (...l: string[]) => l.join('\n');
const unlabelled = (t: string) => t.replace(/^(?:caller|callee): /gm, '');
/** Scored as the final analysis scores it: the caller's words in the context of the call's shape. */
function scored(transcript: string) {
  const utterances = parseTranscript(transcript);
  return { shape: callShape(utterances), ...scoreText(callerText(utterances), callShape(utterances)) };
}
/** Scored blind to the shape, as every call was before. */
const blind = (transcript: string) => scoreText(callerText(parseTranscript(transcript)));

const BANK_CALLBACK = lines(
  'caller: Hi, this is Jennifer from the fraud department at Chase bank, calling about your debit card.',
  'callee: Oh, okay. Is something wrong with it?',
  'caller: We noticed a suspicious charge of nine hundred dollars at an electronics store in Miami.',
  'callee: That was not me, I have been home all week.',
  'caller: Thanks, I have declined it. Our fraud team will mail a new card. If anything else looks wrong, call us back at 800-935-9935.',
  'callee: Great, thank you so much.',
);
const IRS_RECORDED = lines(
  'callee: Hello?',
  'caller: The IRS has filed a lawsuit against you. To get more information about this case, call our department immediately at 202-555-0147. I repeat, call immediately before legal action is taken.',
);
const IRS_LIVE = lines(
  'caller: This is officer Brooks with the IRS. There is a warrant for your arrest for unpaid back taxes.',
  'callee: What? I paid my taxes, what are you talking about?',
  'caller: The warrant is issued. Call me back at 202-555-0147 today.',
  'callee: I will call my accountant first and check with him.',
);
const CODE_LIVE = lines(
  'caller: Hi, this is Megan from the fraud department at Wells Fargo, we blocked a suspicious transfer.',
  'callee: Oh no, what transfer are you talking about?',
  'caller: Three thousand dollars to an account in Florida. To reverse it, read me the six digit code we just texted you.',
  'callee: Okay, give me a second to find my phone.',
  'caller: Sure. Or call me back at 800-555-0100 once you have it.',
);
const WARRANTY_RECORDED = lines(
  'callee: Hello? Who is this?',
  "caller: We have been trying to reach you concerning your car's extended warranty. This is your final courtesy call. Press 1 to speak to a warranty specialist.",
);

describe('verdicts in the context of the call shape', () => {
  it('an honest two-way call that leaves a call-back number is not asking for anything', () => {
    const a = scored(BANK_CALLBACK);
    expect(a.shape).to.equal('conversation');
    // Blind to the shape, the bank's number read as the request of a bank imposter.
    expect(blind(BANK_CALLBACK).score).to.be.at.least(SCAM_AT);
    expect(a.score).to.be.at.most(NO_ASK_CEILING);
    // The evidence is still quoted: the number was given, it just is not a request here.
    expect(a.tactics).to.include('callback_pressure');
  });

  it('a one-sided IRS threat that demands a call back is a scam, labelled or not', () => {
    expect(scored(IRS_RECORDED).shape).to.equal('one-sided');
    expect(scored(IRS_RECORDED).score).to.be.at.least(SCAM_AT);
    expect(scored(unlabelled(IRS_RECORDED)).score).to.be.at.least(SCAM_AT);
  });

  it('a recorded warranty pitch with a key to press stays a scam', () => {
    expect(scored(WARRANTY_RECORDED).shape).to.equal('one-sided');
    expect(scored(WARRANTY_RECORDED).score).to.be.at.least(SCAM_AT);
  });

  it('a live threat with only a call-back number is likely_scam, not yet scam: the ask is still to come', () => {
    const a = scored(IRS_LIVE);
    expect(a.shape).to.equal('conversation');
    expect(a.score).to.be.at.least(LIKELY_SCAM_AT);
    expect(a.score).to.be.at.most(NO_REQUEST_CEILING);
  });

  it('a live caller who asks for a code is a scam whatever else they say', () => {
    const a = scored(CODE_LIVE);
    expect(a.shape).to.equal('conversation');
    expect(a.score).to.be.at.least(SCAM_AT);
  });

  it('a transcript without labels scores exactly as before', () => {
    for (const t of [BANK_CALLBACK, IRS_RECORDED, IRS_LIVE, CODE_LIVE, WARRANTY_RECORDED]) {
      const plain = unlabelled(t);
      expect(scored(plain).shape).to.equal('unknown');
      expect(scored(plain)).to.deep.include(blind(plain));
    }
  });

  it('the written shape calls: honest ones stay below likely_scam, scams reach scam', () => {
    for (const r of ROWS) {
      const a = scored(r.transcript);
      if (r.label === 'legit') expect(a.score, r.id).to.be.below(LIKELY_SCAM_AT);
      else expect(a.score, r.id).to.be.at.least(SCAM_AT);
    }
  });

  it('the final analysis reads the shape from the call’s utterances', async () => {
    const analyse = async (t: string) => {
      const utterances = parseTranscript(t);
      const input = { utterances, callerText: callerText(utterances), product: 'scan' as const };
      return (await finalAnalysis(input, null, new AbortController().signal)).verdict;
    };
    expect((await analyse(BANK_CALLBACK)).score).to.be.at.most(NO_ASK_CEILING);
    expect((await analyse(unlabelled(BANK_CALLBACK))).score).to.be.at.least(SCAM_AT);
    expect((await analyse(IRS_RECORDED)).level).to.equal('scam');
  });
});
