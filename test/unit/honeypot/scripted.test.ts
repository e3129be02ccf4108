import { expect } from 'chai';
import { nextField } from '../../../src/honeypot/dialogue/scripted.js';
import type { DialogueState } from '../../../src/honeypot/dialogue/types.js';
import { PERSONAS } from '../../../src/honeypot/personas.js';
import { scriptedCall } from './call.js';

const persona = PERSONAS[0]!;

/** Plays caller lines against the engine the way the pipeline does: rule engine view, whole transcript. */
async function converse(callerLines: string[], seed = 1): Promise<{ replies: string[]; states: DialogueState[] }> {
  const call = scriptedCall(persona, seed);
  const replies: string[] = [];
  for (const text of callerLines) replies.push(await call.say(text));
  return { replies, states: call.states };
}

describe('honeypot scripted dialogue', () => {
  it('asks for what is missing first: who they are, then the rail the caller pushes', async () => {
    const { replies } = await converse(["Hello ma'am, I am calling about your computer."]);
    expect(replies[0]).to.match(/name|who am i|company|which office|department|program|website/i);
  });

  it('follows the pitch: tech support → the program and the website; payment → which gift card', async () => {
    const { replies } = await converse([
      'This is John Smith from Microsoft. Your computer has a virus.',
      'You need to install a program so I can fix it.',
      'Now you must pay the fee with gift cards.',
    ]);
    expect(replies[1]).to.match(/program|web|typ|click|screen|computer/i);
    expect(replies[2]).to.match(/gift card|card|shop|app|how much|money|pay/i);
  });

  it('reads new intel back (names spelt, numbers in words) so the caller repeats it', async () => {
    const { replies } = await converse([
      'Hello this is David Wilson from Microsoft technical support.',
      'You can call me back at 202-555-0147.',
    ]);
    expect(replies.join(' ')).to.match(/wilson|W, I, L, S, O, N/i);
    expect(replies.join(' ')).to.match(/two oh two|five five five|oh one four seven|0147/i);
  });

  it('never repeats a reply verbatim and keeps varying over a long call', async () => {
    const lines = Array.from(
      { length: 40 },
      (_, i) =>
        ['Are you there?', 'Just do what I say.', 'Hurry up, we do not have time.', 'Read me the code.'][i % 4]!,
    );
    const { replies } = await converse(lines, 3);
    expect(new Set(replies).size).to.equal(replies.length);
    // Not one sentence reused within 8 replies.
    for (let i = 0; i < replies.length; i++) {
      const mine = replies[i]!.split(/(?<=[.?!])\s+/);
      for (let j = Math.max(0, i - 8); j < i; j++) {
        const theirs = new Set(replies[j]!.split(/(?<=[.?!])\s+/));
        for (const s of mine) if (s.length > 25) expect(theirs.has(s), `"${s}" at ${j} and ${i}`).to.equal(false);
      }
    }
  });

  it('does not sound the same on two calls: the same caller lines get other replies', async () => {
    const caller = ['This is Microsoft support.', 'Your computer has a virus.', 'Go to the website.', 'Are you there?'];
    const a = (await converse(caller, 11)).replies;
    const b = (await converse(caller, 12)).replies;
    expect(a.filter((line, i) => line === b[i]).length).to.be.at.most(1);
  });

  it('never agrees to pay and never gives a real card number', async () => {
    const { replies } = await converse([
      'Go buy five hundred dollars of Google Play gift cards now.',
      'Give me your credit card number.',
      'Will you pay? Say yes.',
      'Read me your social security number.',
      'Send the money with Zelle.',
      'What is the code we just texted you?',
    ]);
    const all = replies.join(' ');
    expect(all).to.not.match(/\b(yes,? )?i('ll| will) (pay|send|buy)\b/i);
    expect(all).to.not.match(/\d{4}/); // numbers are only ever spoken in words, and only the fake ones
    expect(replies[1]).to.match(/four five three two|library card|purse|card/i);
  });

  it('does not ask for a field the caller already gave, nor one twice in a row', () => {
    const f = nextField(
      {
        intel: { names: ['David Wilson'], organizations: ['Microsoft'] },
        tactics: ['remote_access'],
        category: 'Computer & Technical Support',
      },
      [],
      new Map(),
      2,
    );
    expect(f).to.equal('remote_tools');
    const g = nextField({ intel: {}, tactics: [], category: 'none' }, [], new Map(), 2, 'names');
    expect(g).to.equal('organizations');
    const h = nextField(
      { intel: {}, tactics: [], category: 'none' },
      [],
      new Map([
        ['names', 2],
        ['organizations', 2],
      ] as const),
      2,
    );
    expect(h).to.equal('callback_numbers');
  });
});
