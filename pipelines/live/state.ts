import type { EndReason, Utterance } from '../../src/domain/frames.js';
import type { Assessment, Verdict } from '../../src/domain/verdict.js';
import { createRuleScorer, type RuleScorer } from '../../src/rules/index.js';
import { callerText, formatTranscript } from '../../src/rules/transcript.js';

/**
 * What one live session accumulates while it runs and the ending needs: the transcript, the rule
 * scorer (its intel), the last verdict sent, the last model assessment, the digits pressed and why
 * the session ended. Owned by one pipeline instance; never shared between sessions.
 */
export class LiveState {
  readonly utterances: Utterance[] = [];
  readonly rules: RuleScorer = createRuleScorer();
  dtmf = '';
  lastVerdict: Verdict | null = null;
  lastModel: Assessment | null = null;
  endReason: EndReason = 'closed';

  constructor(readonly startedAt: number) {}

  record(u: Utterance): void {
    this.utterances.push(u);
  }

  callerText(): string {
    return callerText(this.utterances);
  }

  transcript(): string {
    return formatTranscript(this.utterances);
  }
}
