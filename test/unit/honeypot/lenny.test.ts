import { expect } from 'chai';
import { createLennyDialogue, LENNY_LINES } from '../../../src/honeypot/dialogue/lenny.js';
import type { DialogueState } from '../../../src/honeypot/dialogue/types.js';
import { PERSONAS } from '../../../src/honeypot/personas.js';

describe('honeypot Lenny-style baseline', () => {
  const state = (text: string): DialogueState => ({
    persona: PERSONAS[0]!,
    lines: [{ role: 'caller', speaker: 'caller', text, at: 0 }],
    intel: {},
    tactics: [],
    category: 'none',
    score: 0,
  });

  it('plays its sixteen lines in order whatever the caller says, then starts again', async () => {
    expect(LENNY_LINES).to.have.length(16);
    const engine = createLennyDialogue();
    const signal = new AbortController().signal;
    const said: string[] = [];
    for (let i = 0; i < 18; i++) said.push(await engine.reply(state(i % 2 ? 'Read me the code.' : 'Hello?'), signal));
    expect(said.slice(0, 16)).to.deep.equal(LENNY_LINES);
    expect(said.slice(16)).to.deep.equal(LENNY_LINES.slice(0, 2));
    expect(engine.id).to.equal('lenny');
  });
});
