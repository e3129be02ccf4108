/*
 * The baseline to beat: a fixed cycle of lines played one after another whenever the caller pauses,
 * whatever the caller said, in the manner of the well-known "Lenny" answering bot (a short loop of
 * recordings of a slow, hard-of-hearing old man that kept callers tens of minutes). The lines here are
 * the project's own, spoken by the persona's voice. It is offered as an engine so the scripted engine is
 * measured against the simplest thing known to work, and so an operator can run it where no reasoning is
 * wanted at all.
 */
import type { DialogueEngine } from './types.js';

/** Sixteen lines, as the original loop had: agreeable, distracted, with a few questions that invite answers. */
export const LENNY_LINES: readonly string[] = [
  'Oh, yes, yes, yes. Go on.',
  'Sorry, I am a bit hard of hearing. Could you say that a little louder?',
  'Now, which company did you say you were calling from?',
  'Yes. Yes, that sounds right. My wife used to look after all that, you see.',
  'Sorry, there is a duck in the garden again. Just a moment. Shoo! Go on! Sorry, where were we?',
  'Yes, yes. And what was your name again?',
  'Oh, that is very good. My daughter, she is the clever one, she would know all about this.',
  'Hang on, let me find a pen. Right, I am writing it down. Go on.',
  'Could you say that again? The line has gone all crackly.',
  'Yes, yes, I am listening. It is just the hearing aid, you see.',
  'Well, I did have some trouble with the bank a while back. Is this about that?',
  'Sorry, someone is at the door. No, it was nobody. Where were we?',
  'Yes. So what do I do first, then?',
  'Oh, I am not very good with these things. My grandson does the computer.',
  'Right, right. And you are with which office again?',
  'Yes, yes, yes. Sorry, go on, I am with you.',
];

/** Plays `LENNY_LINES` in order, then again from the top; what the caller says is never read. */
export function createLennyDialogue(lines: readonly string[] = LENNY_LINES): DialogueEngine {
  let next = 0;
  return {
    id: 'lenny',
    async reply(_state, signal) {
      if (signal.aborted) throw new Error('aborted');
      const line = lines[next % lines.length]!;
      next += 1;
      return line;
    },
  };
}
