import type { Assessment } from '../../domain/verdict.js';
import type { Intel } from '../../domain/intel.js';
import type { Utterance } from '../../domain/frames.js';

export interface ModelInput {
  /** The transcript so far (live) or whole (final), every role included. */
  utterances: readonly Utterance[];
  /** What the caller alone said, joined: the only text that is scored. */
  callerText: string;
  language?: string;
  product: 'filter' | 'honeypot' | 'scan';
}

export interface Analysis extends Assessment {
  intel: Intel;
}

/**
 * The live scores of one running call, from a provider that keeps what it has read of the call: each
 * `score` is given the call so far, as `scoreLive` is, and reads only what was said since the last.
 */
export interface LiveScorer {
  score(input: ModelInput, signal: AbortSignal): Promise<Assessment>;
  /** The call is over: what was kept of it is let go. */
  close(): void;
}

/** The model port (spec: model scoring every 30 s, and one final analysis). */
export interface ModelProvider {
  /** `<provider>:<model>`, as shown in `capabilities.llm`. */
  readonly id: string;
  scoreLive(input: ModelInput, signal: AbortSignal): Promise<Assessment>;
  /** A scorer for one running call, where the provider can score a call by its new lines alone. */
  openLive?(): LiveScorer;
  analyze(input: ModelInput, signal: AbortSignal): Promise<Analysis>;
  close?(): Promise<void>;
}
