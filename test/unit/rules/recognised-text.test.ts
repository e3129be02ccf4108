import { expect } from 'chai';
import { findEvidence } from '../../../src/rules/evidence.js';
import { scoreText } from '../../../src/rules/index.js';

/**
 * Telephone speech recognisers write "i r s" for IRS, numbers in words, no punctuation and no capitals.
 * The cues read those forms, and the same forms in honest talk stay honest.
 */
const ids = (text: string) => findEvidence(text).map((h) => h.cue.id);

describe('rules on recognised speech', () => {
  it('reads spelled-out agencies and call-back numbers in words', () => {
    expect(ids('this is officer brooks from the i r s')).to.include('tax_authority');
    expect(ids('call me back at eight eight eight five five five zero one nine nine')).to.include('call_back');
    expect(ids('call our department number immediately at two zero two five five five zero one four seven')).to.include(
      'call_back',
    );
    const call =
      'this is officer daniel brooks from the i r s there is a warrant for your arrest for back taxes call me back at eight eight eight five five five zero one nine nine today';
    expect(scoreText(call).score).to.be.at.least(0.85);
    expect(scoreText(call).category).to.equal('Tax Collection');
  });

  it('reads a code request without the word code, and with it in lower case without punctuation', () => {
    expect(ids('read me the six digits we just texted you')).to.include('otp_request');
    expect(
      ids('i am going to send you a one time verification code to verify i am talking to the right person'),
    ).to.include('otp_request');
  });

  it('does not invent a scam from the same forms in honest talk', () => {
    expect(scoreText('the i r s sent me my refund last week so we can finally fix the roof').score).to.be.below(0.3);
    expect(scoreText('call me back at eight tonight if you want to come for dinner').score).to.be.below(0.3);
    expect(scoreText('we sent you a code please enter it in the app to finish signing in').score).to.be.below(0.3);
  });

  it('reads amounts and discounts said in words, and quotes them as said', () => {
    const pitch =
      'hi there i am calling you from spectrum to let you know that your existing account is qualified for fifty percent off in order to avail the discount kindly call us back at eight four four six four nine one four one three';
    expect(ids(pitch)).to.include('account_discount_bait');
    expect(scoreText(pitch).score).to.be.at.least(0.85);
    const quoted = findEvidence(pitch).find((h) => h.cue.id === 'account_discount_bait')!.quote;
    expect(pitch).to.include(quoted);
  });

  it('without punctuation, a negation reaches a few words, not past a new turn of speech', () => {
    // The callee's "never ordered" must not cancel the caller's request that follows it.
    const conversation =
      "okay i see an order for a samsung tv placed yesterday no i never ordered that okay ma'am i'm going to send you a one time verification code to verify i'm talking to the right person";
    expect(ids(conversation)).to.include('otp_request');
    expect(ids('the payment didn t go through you can pay right now with cash app or a prepaid card')).to.include(
      'gift_card_payment',
    );
    // An assurance still negates what it rules out.
    expect(ids('we will never ask you for your password or your pin')).to.not.include('credential_request');
    expect(ids('remember i will not ask you to read me any code')).to.not.include('otp_request');
  });

  it('reads the decisive words through common recognition errors', () => {
    // Heard on telephone-band speech of tuning calls: "buy" as "by", "issued" lost, "earliest" cut short.
    expect(ids('press one to speak with an officer or a warrant will be a hundred and you')).to.include.members([
      'officer_title',
      'arrest_threat',
    ]);
    expect(ids('can you by thirteen gift cards and send me the pictures')).to.include('gift_card_payment');
    expect(ids('we accept gift card or you can wire it we need it right now')).to.include('gift_card_payment');
    expect(ids('you qualify to consolidating your debt and lower your monthly payment')).to.include(
      'debt_reduction_offer',
    );
    expect(ids('when you get this message kindly call back at the early as possible')).to.include('call_back');
  });

  it('keeps the same words honest where nothing is asked', () => {
    expect(ids('i stopped by the mall and got her a gift card for her birthday')).to.not.include('gift_card_payment');
    expect(ids('you should talk to a police officer about the accident')).to.not.include('officer_title');
    expect(scoreText('i will call you back at the earliest when i get home tonight').score).to.be.below(0.3);
  });
});
