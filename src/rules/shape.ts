import type { Utterance } from '../domain/frames.js';

/**
 * The shape of a call, read from who speaks and how much:
 * - `one-sided`: only the caller speaks, or the other party only answers ("hello?", "okay, thanks"): a
 *   recorded message, a voicemail, a pitch played at the listener;
 * - `conversation`: both parties take real turns;
 * - `unknown`: nothing tells the speakers apart (a mono recording's recogniser output, an unlabelled
 *   transcript).
 * What a caller asks means something else in each: "press 1" or "call us back at …" is the whole request
 * of a recorded pitch, but in a conversation honest people leave call-back numbers all the time.
 */
export type CallShape = 'one-sided' | 'conversation' | 'unknown';

/** The other party saying this many words or fewer in all is answering the phone, not talking. */
export const FEW_WORDS = 8;
/** Turns (runs of lines) the other party needs, besides enough words, for the call to be a conversation. */
export const REAL_TURNS = 2;

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;
const wordCount = (text: string): number => text.match(WORD)?.length ?? 0;

/**
 * The call's shape from its utterances (`parseTranscript`'s, a live session's or a scan's).
 *
 * Parties: with any `callee` line, the caller and the callee. Otherwise the speakers by label: neutral
 * labels (`A:`/`B:`, `agent:`/`customer:`) name both parties without saying who called, and the one who
 * says most is taken as the caller; that is enough to tell a conversation from a monologue.
 * A call whose every line is the caller's under no label of its own is `unknown`: after parsing, an
 * unlabelled transcript and one labelled `caller:` throughout look the same, and both are scored as a
 * one-sided call is (the policy only changes conversations, see `docs/rules.md`).
 * The honeypot's persona is left out: it talks whatever the caller does, so its turns say nothing
 * about whether anyone is listening on the other end.
 */
export function callShape(utterances: readonly Utterance[]): CallShape {
  const lines = utterances.filter((u) => u.role !== 'persona' && wordCount(u.text) > 0);
  if (lines.length === 0) return 'unknown';
  const hasCallee = lines.some((u) => u.role === 'callee');
  const partyOf = (u: Utterance): string => (hasCallee ? u.role : u.speaker);
  const words = new Map<string, number>();
  for (const u of lines) words.set(partyOf(u), (words.get(partyOf(u)) ?? 0) + wordCount(u.text));
  if (!hasCallee && words.size === 1 && words.has('caller')) return 'unknown';
  if (words.size === 1) return 'one-sided';
  const caller = hasCallee ? 'caller' : [...words].sort((a, b) => b[1] - a[1])[0]![0];
  let otherWords = 0;
  let otherTurns = 0;
  let last = '';
  for (const u of lines) {
    const party = partyOf(u);
    if (party !== caller) {
      otherWords += wordCount(u.text);
      // A turn is a run of the other party's lines: two lines in a row are one turn, however they were cut.
      if (last === '' || last === caller) otherTurns += 1;
    }
    last = party;
  }
  return otherWords > FEW_WORDS && otherTurns >= REAL_TURNS ? 'conversation' : 'one-sided';
}
