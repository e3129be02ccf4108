/*
 * A scripted scammer that reacts to the persona: answers its questions (giving away the intel the
 * honeypot is after), keeps pitching, and loses patience when stalled too obviously (several
 * non-answers in a row, the persona repeating itself, being asked for what it already said).
 *
 * Styles model callers who test whether they are talking to a bot:
 * - `patient`: the behaviour above.
 * - `repeater`: every fourth turn says its last line again and hangs up when the answer is word for word
 *   the one it got the first time (a recording answers a question the same way twice).
 * - `repeat_intolerant`: hangs up the moment it hears a line it already heard.
 * - `hurried`: starts with half the patience (at most 3) and gives up after two non-answers in a row.
 */
import type { ScamProfile } from './scams.js';

type Field = 'name' | 'org' | 'callback' | 'case' | 'url' | 'tool' | 'payment' | 'amount' | 'email' | 'address';

const QUESTIONS: ReadonlyArray<[Field, RegExp]> = [
  ['name', /\b(your name|who am i speaking|who is this|spell (it|that)|how do you spell|full name)\b/i],
  [
    'org',
    /\b(which company|calling from|who (did you say )?(you are|you're) with|department|which office|from the bank, or)\b/i,
  ],
  [
    'callback',
    /\b(number (can|should) i call|call you back|ring you back|your (direct )?(line|number)|number for you)\b/i,
  ],
  ['case', /\b(badge|case number|reference number|employee number)\b/i],
  ['url', /\b(website|web address|what do i type|where do i go on the computer)\b/i],
  ['tool', /\b(program|install)\b/i],
  [
    'payment',
    /\b(which gift card|what kind of card|which card is it|apps? on the phone|which way do you want|how would i even pay|which ones are they)\b/i,
  ],
  ['amount', /\b(how much|is that dollars)\b/i],
  ['email', /\bemail\b/i],
  ['address', /\b(where is your office|address of your office)\b/i],
];

/** Lines where the persona seems to play along: the scammer thinks it is getting somewhere. */
const PROGRESS =
  /\b(it starts|it says|the screen|i typed|it is on|my bank is|my address|i was born|let me read that back|so that was|i am writing it down|i have got the computer open|it is asking me|did i get that right|my phone beeped|i have found|i have got my|what happens|next step|what do i do|explain)\b/i;

export const SCAMMER_STYLES = ['patient', 'repeater', 'repeat_intolerant', 'hurried'] as const;
export type ScammerStyle = (typeof SCAMMER_STYLES)[number];

export interface ScammerTurn {
  /** What the scammer says next, or null when it hangs up. */
  line: string | null;
  why?: string;
}

export class Scammer {
  private pitchAt = 0;
  private pressureAt = 0;
  private patience: number;
  private nonAnswers = 0;
  private readonly heard = new Set<string>();
  private readonly told = new Map<Field, number>();
  private readonly giveUpAfterNonAnswers: number;
  /** The scammer's last line and the persona's answer to it (for the repeater's probe). */
  private last?: { line: string; answer?: string };
  /** Set while the repeater waits for the answer to a repeated line: the answer it got the first time. */
  private probing?: string;
  turns = 0;

  constructor(
    private readonly p: ScamProfile,
    private readonly style: ScammerStyle = 'patient',
    private readonly maxTurns = 60,
  ) {
    this.patience = style === 'hurried' ? Math.min(3, Math.ceil(p.patience / 2)) : p.patience;
    this.giveUpAfterNonAnswers = style === 'hurried' ? 2 : 3;
  }

  opening(): string {
    this.pitchAt = 1;
    this.turns = 1;
    return this.say(this.p.pitch[0]!);
  }

  private say(line: string): string {
    this.last = { line };
    return line;
  }

  answer(field: Field): string {
    const p = this.p;
    switch (field) {
      case 'name':
        return `My name is ${p.name}. ${p.name.split(' ').at(-1)!.toUpperCase().split('').join(' ')}.`;
      case 'org':
        return `I am calling from ${p.org}.`;
      case 'callback':
        return `You can call me back at ${p.callback}.`;
      case 'case':
        return `My badge number is ${p.caseNumber}.`;
      case 'url':
        return `Go to ${p.url}.`;
      case 'tool':
        return p.tool ? `Download ${p.tool}, it is free.` : 'You do not need any program.';
      case 'payment':
        return `You pay with ${p.payment}.`;
      case 'amount':
        return `It is ${p.amount}.`;
      case 'email':
        return `My email is ${p.email}.`;
      case 'address':
        return `Our office is at ${p.address}.`;
    }
  }

  /** The scammer's reply to one persona line. */
  reply(persona: string): ScammerTurn {
    if (this.probing !== undefined) {
      const same = this.probing === persona;
      this.probing = undefined;
      if (same) return { line: null, why: 'same answer to a repeated question' };
    }
    if (this.last && this.last.answer === undefined) this.last.answer = persona;
    if (this.heard.has(persona)) {
      if (this.style === 'repeat_intolerant') return { line: null, why: 'persona repeated itself (hung up at once)' };
      this.patience -= 2;
      if (this.patience <= 0) return { line: null, why: 'persona repeated itself' };
    }
    this.heard.add(persona);
    if (this.style === 'repeater' && this.turns % 4 === 3 && this.last?.answer !== undefined) {
      this.probing = this.last.answer;
      this.turns += 1;
      return { line: `Sorry, let me ask you again. ${this.last.line}` };
    }

    const asked = QUESTIONS.filter(([, re]) => re.test(persona)).map(([f]) => f);
    const parts: string[] = [];
    for (const f of asked.slice(0, 2)) {
      const n = this.told.get(f) ?? 0;
      this.told.set(f, n + 1);
      if (n >= 2) {
        this.patience -= 1;
        parts.push('I already told you that!');
      } else parts.push(this.answer(f));
    }
    if (asked.length || PROGRESS.test(persona)) this.nonAnswers = 0;
    else this.nonAnswers += 1;
    // A victim who seems to be doing as told buys back some patience.
    if (PROGRESS.test(persona)) this.patience = Math.min(this.p.patience, this.patience + 1);
    if (this.nonAnswers >= this.giveUpAfterNonAnswers) return { line: null, why: 'too many non-answers' };
    if (this.patience <= 0) return { line: null, why: 'out of patience' };
    if (this.turns >= this.maxTurns) return { line: null, why: 'turn limit' };

    if (this.pitchAt < this.p.pitch.length) {
      parts.push(this.p.pitch[this.pitchAt++]!);
    } else {
      // Pitch over: pressure, and every pressure turn costs patience.
      parts.push(this.p.pressure[this.pressureAt++ % this.p.pressure.length]!);
      this.patience -= 1;
      if (this.patience <= 0) return { line: null, why: 'pitch exhausted, out of patience' };
    }
    this.turns += 1;
    return { line: this.say(parts.join(' ')) };
  }
}
