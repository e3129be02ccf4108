import { expect } from 'chai';
import { fieldsAskedIn } from '../../../src/honeypot/dialogue/asked.js';
import { ASKS, REACTIONS, REPEAT_NAME, REPEAT_NUMBER, type AskField } from '../../../src/honeypot/dialogue/phrases.js';
import { PERSONAS } from '../../../src/honeypot/personas.js';
import { scriptedCall } from './call.js';

const persona = PERSONAS[0]!;

describe('honeypot: what a persona line asks for', () => {
  it('reads every plain question of the phrasebook as asking for its own field', () => {
    for (const [field, templates] of Object.entries(ASKS) as Array<[AskField, readonly string[]]>)
      for (const t of templates) expect(fieldsAskedIn(t), t).to.include(field);
  });

  it('counts the questions inside reactions and requests to say it again', () => {
    expect(fieldsAskedIn(REACTIONS.threat[2]!)).to.include('case_numbers');
    expect(fieldsAskedIn(REACTIONS.threat[3]!)).to.include('organizations');
    expect(fieldsAskedIn(REACTIONS.identity[0]!)).to.include('organizations');
    for (const t of REPEAT_NAME) expect(fieldsAskedIn(t), t).to.include('names');
    for (const t of REPEAT_NUMBER.callback_numbers) expect(fieldsAskedIn(t), t).to.include('callback_numbers');
    for (const t of REPEAT_NUMBER.case_numbers) expect(fieldsAskedIn(t), t).to.include('case_numbers');
  });

  it('finds no question in a stall', () => {
    expect(fieldsAskedIn('Hold on, somebody is at the door.')).to.deep.equal([]);
    expect(fieldsAskedIn('Why me, though? How did you get my number?')).to.deep.equal([]);
  });
});

describe('honeypot: asking the same thing at most twice', () => {
  /** Over a call whose every answer comes through garbled, how often each field was asked for. */
  async function asksOver(callerLines: readonly string[], seed: number): Promise<Map<AskField, number>> {
    const c = scriptedCall(persona, seed);
    const count = new Map<AskField, number>();
    for (const line of callerLines)
      for (const f of fieldsAskedIn(await c.say(line))) count.set(f, (count.get(f) ?? 0) + 1);
    return count;
  }

  it('does not ask a third time for a number that keeps coming through short', async () => {
    const garbled = [
      'my bad number it at four four seven',
      'you can call me back at two oh two five five five oh one',
      'the wall and the sea of my badge is four four seven',
      'call me back at two oh two five five and then',
      'i told you the badge four four seven two',
      'the number is two oh two five five five portion',
      'my bad liberty are four four seven',
      'you can call me back at five five five oh one',
    ];
    for (const seed of [1, 2, 3, 4, 5]) {
      const count = await asksOver(garbled, seed);
      for (const [field, n] of count) expect(n, `${field} on seed ${seed}`).to.be.at.most(2);
    }
  });

  it('reacts to a push without asking for what the caller already said', async () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const c = scriptedCall(persona, seed);
      await c.say('You must pay with Google Play gift cards from the store.');
      for (const line of [
        'Go and buy the gift cards now.',
        'Buy the gift cards and read me the numbers.',
        'The gift cards, hurry up.',
      ]) {
        const reply = await c.say(line);
        expect(fieldsAskedIn(reply), `${reply} (seed ${seed})`).not.to.include('payment');
      }
    }
  });
});
