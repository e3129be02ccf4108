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

/** True when the words just before `index`, in the same clause, negate what follows. */
export function isNegated(text: string, index: number): boolean {
  const prefix = clausePrefix(text, index).replace(/[’‘]/g, "'");
  if (!NEGATION.test(prefix)) return false;
  return !CONDITIONAL.test(prefix);
}
