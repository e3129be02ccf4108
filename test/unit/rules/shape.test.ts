import { expect } from 'chai';
import type { Utterance } from '../../../src/domain/frames.js';
import { parseTranscript } from '../../../src/rules/index.js';
import { callShape } from '../../../src/rules/shape.js';

const shapeOf = (text: string) => callShape(parseTranscript(text));

describe('call shape', () => {
  it('is unknown without speaker labels (a mono recording as the recogniser writes it)', () => {
    expect(
      shapeOf('this is the irs there is a lawsuit against you call us back at two zero two five five five'),
    ).to.equal('unknown');
    expect(shapeOf('Hello?\nThis is officer Brooks. Call me back today.')).to.equal('unknown');
    expect(callShape([])).to.equal('unknown');
    expect(shapeOf('   \n  ')).to.equal('unknown');
  });

  it('is unknown when every line is the caller’s (scan audio and a caller-only transcript look the same)', () => {
    const scanned: Utterance[] = [
      { role: 'caller', speaker: 'caller', text: 'press one to speak to an agent', at: 0 },
      { role: 'caller', speaker: 'caller', text: 'this is your final notice', at: 1 },
    ];
    expect(callShape(scanned)).to.equal('unknown');
    expect(shapeOf('caller: Press 1 now.\ncaller: This is your final notice.')).to.equal('unknown');
  });

  it('is one-sided when the other party only answers the phone', () => {
    expect(
      shapeOf(
        'callee: Hello?\ncaller: The IRS has filed a lawsuit against you. Call our department immediately at 202-555-0147.',
      ),
    ).to.equal('one-sided');
    expect(
      shapeOf(
        'caller: Hello, this is Dana from CVS Pharmacy.\ncallee: Okay, thanks.\ncaller: Our number is 512-555-0142.\ncallee: Bye.',
      ),
    ).to.equal('one-sided');
    // Only a callee label: every other line is the caller's recorded message.
    expect(shapeOf('callee: hello? who is this?\nYour car warranty is about to expire. Press 1 now.')).to.equal(
      'one-sided',
    );
  });

  it('is one-sided when the other party says a lot but only once (nobody answered back)', () => {
    expect(
      shapeOf(
        'caller: Your social security number has been suspended.\ncallee: What? I do not understand what you are talking about at all.',
      ),
    ).to.equal('one-sided');
  });

  it('is a conversation when both parties take real turns', () => {
    expect(
      shapeOf(
        [
          'caller: Hi, this is Jenna from Bright Smile Dental about your cleaning tomorrow.',
          'callee: Oh right, is it at two or at three?',
          'caller: Two thirty. Can you still make it?',
          'callee: I think so, but I might be a little late from work.',
          'caller: No problem. If anything changes, call us back at 555 239 1100.',
        ].join('\n'),
      ),
    ).to.equal('conversation');
  });

  it('reads neutral labels (A:/B:, agent:/customer:) as two parties, whoever called', () => {
    expect(
      shapeOf(
        'A: Are you ready?\nB: Uh-huh, go ahead.\nA: What do you think about dining out?\nB: I choose restaurants for the food more than the price.',
      ),
    ).to.equal('conversation');
    expect(shapeOf('agent: Your order is ready at the bar.\ncustomer: Thanks.')).to.equal('one-sided');
    expect(shapeOf('Speaker 1: This is a recorded message about your account. Press 1.')).to.equal('one-sided');
  });

  it('leaves the honeypot persona out: it talks whether anyone listens or not', () => {
    const call: Utterance[] = [
      {
        role: 'caller',
        speaker: 'caller',
        text: 'This is a final notice about your car warranty. Press 1 now.',
        at: 0,
      },
      { role: 'persona', speaker: 'Harold', text: 'Oh, my car? Which car would that be, dear? I have two.', at: 1 },
      { role: 'caller', speaker: 'caller', text: 'Press 1 to speak to a warranty specialist.', at: 2 },
      {
        role: 'persona',
        speaker: 'Harold',
        text: 'Hold on, let me find my glasses, they were right here a minute ago.',
        at: 3,
      },
    ];
    expect(callShape(call)).to.equal('unknown');
  });

  it('counts a run of the other party’s lines as one turn', () => {
    expect(
      shapeOf(
        'caller: Your package is on hold.\ncallee: What package?\ncallee: I did not order anything at all this month.\ncaller: Press 1.',
      ),
    ).to.equal('one-sided');
  });
});
