/*
 * Which pieces of intel a persona line asks for, wherever in the phrasebook the question came from: a
 * plain ask, a reaction ("Arrested? Me? Which office is this coming from?"), a read-back ("How do you
 * spell that?") or a request to say it again. A caller asked for the same thing a third time hears a
 * recording, or a victim who is not listening, and hangs up; so every question counts toward the
 * field's budget, not only the ones the persona set out to ask.
 */
import type { AskField } from './phrases.js';

const ASKED: ReadonlyArray<[AskField, RegExp]> = [
  [
    'names',
    /\b(your name|who am i speaking|who did you say you were|spell (it|that)|how do you spell|full name|who do i make it out to)\b/i,
  ],
  [
    'organizations',
    /\b(which company|calling from|who did you say you are with|which office|your department|from the bank, or)\b/i,
  ],
  ['callback_numbers', /\b(your number|call you back|ring you back|your direct line|a number for you)\b/i],
  ['case_numbers', /\b(badge number|case number|reference number|employee number)\b/i],
  ['urls', /\b(website|web address|what do i type|where do i go on the computer|spell it again)\b/i],
  ['remote_tools', /\b(the program|computer program|which program|what is it called again)\b/i],
  [
    'payment',
    /\b(which gift card|which cards?\b|what kind of card|name of the card|which ones are they|apps? on the phone|which way do you want|what do they call it)/i,
  ],
  ['amounts', /\b(how much|is that dollars|how many\?)/i],
  ['emails', /\b(e-?mail)\b/i],
  ['addresses', /\b(where is your office|address of your office)\b/i],
];

/** The fields `line` asks the caller for. */
export function fieldsAskedIn(line: string): AskField[] {
  return ASKED.filter(([, re]) => re.test(line)).map(([f]) => f);
}
