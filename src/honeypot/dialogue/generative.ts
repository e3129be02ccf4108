/*
 * The generative dialogue engine: a chat model speaks as the persona. Its reply is cleaned for speech
 * and checked: a reply that breaks character, reads out a valid card number or agrees to pay is refused
 * (ProviderError), so the caller of `reply` falls back to the scripted engine for that turn.
 */
import type { ChatModel } from '../../providers/llm/chat.js';
import { ProviderError } from '../../providers/errors.js';
import { chatTurns, systemPrompt } from './prompt.js';
import type { DialogueEngine, DialogueState } from './types.js';

const MAX_CHARS = 360;

export function createGenerativeDialogue(chat: ChatModel): DialogueEngine {
  return {
    id: `generative:${chat.id}`,
    async reply(state: DialogueState, signal: AbortSignal): Promise<string> {
      const raw = await chat.reply(systemPrompt(state.persona, state), chatTurns(state.lines), signal);
      const line = cleanReply(raw, state.persona.name);
      const problem = unsafeReply(line);
      if (problem) throw new ProviderError(chat.id, `persona reply rejected: ${problem}`);
      return line;
    },
  };
}

/** Spoken text only: no speaker label, stage directions, markup or quotes; at most a few sentences. */
export function cleanReply(raw: string, name: string): string {
  let t = raw.trim();
  t = t.replace(new RegExp(`^\\s*${name}\\s*:\\s*`, 'i'), '');
  t = t
    .replace(/\*[^*]*\*/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\([^)]*\)/g, ' ');
  t = t.replace(/<[^>]*>/g, ' ').replace(/[*_#`~]/g, '');
  t = t.replace(/^["'“”]+|["'“”]+$/g, '');
  t = t.replace(/\s+/g, ' ').trim();
  if (t.length > MAX_CHARS) {
    const cut = t.slice(0, MAX_CHARS);
    const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('? '), cut.lastIndexOf('! '));
    t = end > 40 ? cut.slice(0, end + 1) : cut;
  }
  return t;
}

/** Why a reply must not be spoken, or undefined when it is fine. */
export function unsafeReply(line: string): string | undefined {
  if (!line) return 'empty';
  if (
    /\b(as an ai|language model|i am an? (ai|assistant|bot|program)|honeypot|my instructions|system prompt)\b/i.test(
      line,
    )
  ) {
    return 'breaks character';
  }
  if (
    /\b(i('| wi)ll|i will|okay,? i('| wi)ll|yes,? i('| wi)ll)\s+(pay|send (you )?(the )?money|buy (the )?gift cards?|wire)\b/i.test(
      line,
    )
  ) {
    return 'agrees to pay';
  }
  for (const m of line.matchAll(/\d(?:[ -]?\d){12,18}/g)) {
    if (luhn(m[0].replace(/\D/g, ''))) return 'reads out a valid card number';
  }
  return undefined;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
