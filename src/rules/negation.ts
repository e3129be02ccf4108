/**
 * Negation and benign framing. A cue such as "ask for your password" means the opposite in
 * "we will never ask for your password", so negatable cues look at the start of their own clause.
 * A conditional ("if you do not pay, …") is a threat, not a negation, and is left alone.
 */
const CLAUSE_BREAK = /[.;:!?,\n]|\b(?:but|and then|so|because|however)\b/gi;
const CONDITIONAL = /\b(?:if|unless|otherwise|or else)\b/i;
const NEGATION =
  /\b(?:never|not|no|nobody|no one|none|neither|nor|without|won't|don't|doesn't|didn't|can't|cannot|shouldn't|wouldn't|isn't|aren't|wasn't)\b|n't\b/i;

/** The text between the start of the clause containing `index` and `index` (at most 60 characters back). */
export function clausePrefix(text: string, index: number): string {
  const from = Math.max(0, index - 60);
  const window = text.slice(from, index);
  let cut = 0;
  CLAUSE_BREAK.lastIndex = 0;
  for (let m = CLAUSE_BREAK.exec(window); m; m = CLAUSE_BREAK.exec(window)) cut = m.index + m[0].length;
  return window.slice(cut);
}

/**
 * A recogniser writes no punctuation, so a clause there has no end: "no i never ordered that okay ma'am
 * i'm going to send you a code" would read the request as negated. In such text a negation reaches
 * only a few words forward, and the words that open a new turn of speech or a new clause ("okay",
 * "you can", "i'll") end it; a negation said after them ("we will never ask") still counts.
 */
const SPOKEN_BREAK =
  /\b(?:okay|ok|alright|all right|yes|yeah|ma'?am|sir|well|now|just|please|hello|hi|(?:i|we|you|they)(?:'ll|'m|'re| can| will| need| have to| must| should))\b/gi;
const SPOKEN_REACH_WORDS = 5;

/** True when a text has no punctuation at all: recogniser output, read with the spoken clause rule. */
export function unpunctuated(text: string): boolean {
  return !/[.,;:!?]/.test(text);
}

function spokenPrefix(prefix: string): string {
  let cut = 0;
  SPOKEN_BREAK.lastIndex = 0;
  for (let m = SPOKEN_BREAK.exec(prefix); m; m = SPOKEN_BREAK.exec(prefix)) cut = m.index + m[0].length;
  const words = prefix.slice(cut).trim().split(/\s+/);
  return words.slice(-SPOKEN_REACH_WORDS).join(' ');
}

/** True when the words just before `index`, in the same clause, negate what follows. */
export function isNegated(text: string, index: number, spoken = false): boolean {
  let prefix = clausePrefix(text, index).replace(/[’‘]/g, "'");
  if (spoken) prefix = spokenPrefix(prefix);
  if (!NEGATION.test(prefix)) return false;
  return !CONDITIONAL.test(prefix);
}
