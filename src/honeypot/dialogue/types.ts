import type { Intel } from '../../domain/intel.js';
import type { Utterance } from '../../domain/frames.js';
import type { Tactic } from '../../domain/tactics.js';
import type { Persona } from '../types.js';

/** What a dialogue engine sees when the persona must answer. */
export interface DialogueState {
  persona: Persona;
  /** The whole conversation so far, persona and caller lines, in order. */
  lines: readonly Utterance[];
  /** Intel the caller gave away so far (rule engine). */
  intel: Intel;
  /** Tactics the rule engine saw so far. */
  tactics: readonly Tactic[];
  category: string;
  score: number;
}

/** Produces the persona's next line. Rejects (ProviderError) when a model refuses. */
export interface DialogueEngine {
  /** `scripted` or `generative:<model id>`. */
  readonly id: string;
  reply(state: DialogueState, signal: AbortSignal): Promise<string>;
}

/** The caller's words since the persona last spoke. */
export function pendingCallerText(lines: readonly Utterance[]): string {
  const out: string[] = [];
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i]!;
    if (l.role === 'persona') break;
    if (l.role === 'caller') out.unshift(l.text);
  }
  return out.join(' ');
}

export function personaLines(lines: readonly Utterance[]): string[] {
  return lines.filter((l) => l.role === 'persona').map((l) => l.text);
}
