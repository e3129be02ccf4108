/* The persona's fixed moments: answering, prompting a silent caller, and hanging up. */
import { pick, type Rng } from './rng.js';
import type { Persona } from './types.js';

export function greeting(p: Persona): string {
  return p.greeting ?? `Hello? This is ${p.name}. Who is calling, please?`;
}

const PROMPTS: readonly (readonly string[])[] = [
  ['Hello? Are you still there?', 'Hello? I cannot hear you.', 'Are you there? Hello?'],
  ['Hello? Did I lose you?', 'Is anybody there? The line has gone quiet.', 'Hello-o? Can you hear me?'],
  [
    'I still cannot hear anything. Hello?',
    'Are you there at all? Say something if you can hear me.',
    'Last try. Hello?',
  ],
];

/** The n-th prompt (1-based) after the caller went quiet. */
export function silencePrompt(n: number, rng: Rng): string {
  return pick(PROMPTS[Math.min(PROMPTS.length, Math.max(1, n)) - 1]!, rng);
}

const GOODBYES = [
  'Well, I think we have been cut off. Goodbye, then.',
  'Nobody there? I am going to hang up now. Goodbye.',
  'I cannot hear a thing. I will put the phone down now. Bye-bye.',
];

export function goodbye(rng: Rng): string {
  return pick(GOODBYES, rng);
}
