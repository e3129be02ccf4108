import { expect } from 'chai';
import { LIKELY_SCAM_AT, SCAM_AT } from '../../../src/domain/levels.js';
import { findEvidence } from '../../../src/rules/evidence.js';
import { ASSURED_PROMPT_CEILING, ladder, LONE_CUE_CEILING } from '../../../src/rules/ladder.js';
import { scoreOnly } from '../../../src/rules/index.js';

/** What the ladder lets a call's score be, whatever the calibrated evidence says: [floor, ceiling]. */
const band = (text: string) => {
  const hits = findEvidence(text);
  return [ladder(hits, 0, 'one-sided'), ladder(hits, 1, 'one-sided')];
};

describe('rules: the ladder (what is asked, in the context of what is claimed)', () => {
  it('one kind of evidence alone, however many cues its sentence trips, stays below likely_scam', () => {
    for (const honest of [
      'Thanks for calling back about the mortgage application. To pull up your file I need to verify your identity, so can you give me the last four of your social?',
      'This is the front desk. Can you confirm the card number and the expiration date for the reservation?',
    ]) {
      expect(band(honest)[1], honest).to.equal(LONE_CUE_CEILING);
      expect(scoreOnly(honest, 'one-sided').score, honest).to.be.below(LIKELY_SCAM_AT);
    }
  });

  it('a request made after promising never to make it is not a lone phrase', () => {
    const broken = 'We will never ask for your PIN. Now read me the six digits we just texted you.';
    expect(band(broken)[1]).to.equal(1);
    expect(scoreOnly(broken, 'one-sided').score).to.be.at.least(SCAM_AT);
  });

  it('except a demand for an untraceable payment, which no honest caller makes', () => {
    const demand = 'Please buy Google Play gift cards and read me the numbers on the back.';
    expect(band(demand)[1]).to.equal(1);
    expect(scoreOnly(demand, 'one-sided').score).to.be.at.least(LIKELY_SCAM_AT);
  });

  it('an assured alert that asks only for a key press is suspicious at most; the same script without the assurance is a scam', () => {
    const alert =
      'This is an automated message from your bank fraud prevention. We noticed unusual activity on your card. If you do not recognize a purchase of 62 dollars, press 2.';
    const assured = `${alert} We will never ask you for your PIN or a one time passcode over the phone.`;
    expect(band(assured)[1]).to.equal(ASSURED_PROMPT_CEILING);
    expect(scoreOnly(assured, 'one-sided').score).to.be.below(LIKELY_SCAM_AT);
    expect(scoreOnly(alert, 'one-sided').score).to.be.at.least(SCAM_AT);
  });

  it('a claim and a threat without a request are not floored at likely_scam; with a problem of the listener’s they are', () => {
    const reminder =
      'This is Netflix customer service. Your account will be suspended at the end of the billing cycle unless you update your card in the app.';
    expect(band(reminder)[0]).to.equal(0);
    const imposter =
      'This is officer Brooks from the Internal Revenue Service. There is a warrant for your arrest and you will be arrested today.';
    expect(band(imposter)[0]).to.be.at.least(LIKELY_SCAM_AT);
  });
});
