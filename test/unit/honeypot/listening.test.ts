import { expect } from 'chai';
import { partialNumber, saidSomething } from '../../../src/honeypot/dialogue/listening.js';
import { ASKS, LINE_BROKE, READBACKS, REPEAT_NAME, REPEAT_NUMBER } from '../../../src/honeypot/dialogue/phrases.js';
import { misheard } from '../../../src/honeypot/dialogue/scripted.js';
import { PERSONAS } from '../../../src/honeypot/personas.js';
import { scriptedCall } from './call.js';

const persona = PERSONAS[0]!;

const call = (seed: number) => scriptedCall(persona, seed);

const asksFor = (reply: string, field: keyof typeof ASKS) => ASKS[field].some((t) => reply.includes(t.split('{')[0]!));
const repeatLine = (reply: string) =>
  [...LINE_BROKE, ...REPEAT_NAME, ...REPEAT_NUMBER.callback_numbers, ...REPEAT_NUMBER.case_numbers].some((t) =>
    reply.includes(t.split('{')[0]!),
  );

/** A seeded call whose first reply (to an opening that gives nothing away) asks for `field`. */
async function callAsking(
  field: keyof typeof ASKS,
  opening = 'Hello, I am calling about an important matter.',
): Promise<ReturnType<typeof call>> {
  for (let seed = 1; seed < 200; seed++) {
    const c = call(seed);
    if (asksFor(await c.say(opening), field)) return c;
  }
  throw new Error(`no seed asks for ${field} first`);
}

describe('honeypot listening through a bad line', () => {
  it('finds the digits of a number that came out short, spoken or written', () => {
    expect(partialNumber('you can call me back at two oh two five five five')).to.equal('202555');
    expect(partialNumber('my number is 202 555 and then')).to.equal('202555');
    expect(partialNumber('you can call me back at 202-555-0147')).to.equal(undefined);
    expect(partialNumber('two oh two five five five oh one four seven')).to.equal(undefined);
    expect(partialNumber('i am calling from the tax office')).to.equal(undefined);
    expect(partialNumber('it is 12 today')).to.equal(undefined);
  });

  it('takes three words or more as an answer, "yes" or "hello" as none', () => {
    expect(saidSomething('hello')).to.equal(false);
    expect(saidSomething('yes yes')).to.equal(false);
    expect(saidSomething('the whale sun from mike')).to.equal(true);
  });

  it('reads back the part of a callback number it caught and asks for the whole number again', async () => {
    const c = call(1);
    const reply = await c.say('You can call me back at two oh two five five five.');
    expect(reply).to.match(/two oh two five five five/);
    expect(reply).to.match(/your number|whole number/i);
  });

  it('asks for the rest of a case number that came out short after asking for it', () => {
    const m = misheard('my badge number is four four seven', {}, 'case_numbers', new Set());
    expect(m).to.deep.equal({ field: 'case_numbers', partial: '447' });
  });

  it('reads back a case number of four digits or more for confirmation instead of asking for the rest', async () => {
    // Who they are and how to reach them first; an arrest threat makes the persona ask for a badge number.
    const lines = [
      'Hello, this is David Wilson from Microsoft.',
      'You can call me back at 202-555-0147.',
      'There is a warrant for your arrest.',
      'The police are on their way to your house.',
    ];
    let c: ReturnType<typeof call> | undefined;
    for (let seed = 1; seed < 100 && !c; seed++) {
      const attempt = call(seed);
      for (const line of lines) {
        if (asksFor(await attempt.say(line), 'case_numbers')) {
          c = attempt;
          break;
        }
      }
    }
    if (!c) throw new Error('no seed asks for a case number');
    const reply = await c.say('my bad liberty are five five two one nine');
    expect(reply).to.match(/five five two one nine/);
    expect(REPEAT_NUMBER.case_numbers.some((t) => reply.includes(t.split('{')[0]!))).to.equal(false);
    expect(READBACKS.some((t) => reply.includes(t.split('{')[0]!))).to.equal(true);
  });

  it('does not take an amount of money for a number that came out short', () => {
    expect(misheard('please call now it is four hundred ninety nine dollars', {}, undefined, new Set())).to.equal(
      undefined,
    );
  });

  it('asks the caller to spell a name the line garbled, once', async () => {
    const c = await callAsking('names');
    const first = await c.say('the hour on a whale sun from the mike');
    expect(REPEAT_NAME.some((t) => first.includes(t))).to.equal(true);
    expect(first).to.match(/spell/i);
    const second = await c.say('the hour on a whale sun from the mike again');
    expect(REPEAT_NAME.some((t) => second.includes(t))).to.equal(false);
  });

  it('asks for the name to be spelt when "my name is" came through but the name did not', async () => {
    const c = await callAsking('names');
    const reply = await c.say('my name is so rah call ins from the bank');
    expect(REPEAT_NAME.some((t) => reply.includes(t))).to.equal(true);
  });

  it('asks again, saying the line broke, for another field the answer to which yielded nothing', async () => {
    const c = await callAsking('organizations', 'Hello, this is David Wilson speaking.');
    const reply = await c.say('we are the mark for a sea of the state');
    expect(LINE_BROKE.some((t) => reply.includes(t))).to.equal(true);
    expect(asksFor(reply, 'organizations')).to.equal(true);
  });

  it('does not ask again when the answer came through', async () => {
    const c = await callAsking('names');
    const reply = await c.say('My name is David Wilson.');
    expect(repeatLine(reply)).to.equal(false);
    expect(reply).to.match(/wilson|W, I, L, S, O, N/i);
  });
});
