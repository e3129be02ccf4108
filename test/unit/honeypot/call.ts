import type { Utterance } from '../../../src/domain/frames.js';
import { createScriptedDialogue } from '../../../src/honeypot/dialogue/scripted.js';
import type { DialogueEngine, DialogueState } from '../../../src/honeypot/dialogue/types.js';
import { seededRng } from '../../../src/honeypot/rng.js';
import type { Persona } from '../../../src/honeypot/types.js';
import { createRuleScorer } from '../../../src/rules/index.js';

export interface ScriptedCall {
  engine: DialogueEngine;
  /** What the engine saw before each reply. */
  states: DialogueState[];
  /** One caller line in, the persona's reply out. */
  say(text: string): Promise<string>;
}

/** A call against the scripted engine, one caller line at a time, through the rule engine as the pipeline does. */
export function scriptedCall(persona: Persona, seed: number): ScriptedCall {
  const engine = createScriptedDialogue({ rng: seededRng(seed) });
  const rules = createRuleScorer();
  const lines: Utterance[] = [{ role: 'persona', speaker: persona.name, text: persona.greeting!, at: 0 }];
  const states: DialogueState[] = [];
  return {
    engine,
    states,
    async say(text) {
      lines.push({ role: 'caller', speaker: 'caller', text, at: lines.length });
      const a = rules.push(text);
      const state: DialogueState = {
        persona,
        lines: [...lines],
        intel: rules.intel(),
        tactics: a.tactics,
        category: a.category,
        score: a.score,
      };
      states.push(state);
      const reply = await engine.reply(state, new AbortController().signal);
      lines.push({ role: 'persona', speaker: persona.name, text: reply, at: lines.length });
      return reply;
    },
  };
}
