/*
 * What the stream graphs are given from outside, one narrow port each: the providers (speech-to-text,
 * the model, speech synthesis, the chat model), where whole-call analysis runs, the store's writes, the
 * log and the operator's tuning. The node's composition root hands them out (src/services.ts,
 * `pipelinePorts`); a stage takes only the ones it uses, so a test fakes only those.
 */
import type { Persona } from '../src/honeypot/types.js';
import type { Logger } from '../src/log.js';
import type { ChatModel } from '../src/providers/llm/chat.js';
import type { LiveScorer, ModelInput, ModelProvider } from '../src/providers/llm/types.js';
import type { SpeechToText } from '../src/providers/stt/types.js';
import type { TextToSpeech } from '../src/providers/tts/types.js';
import type { ComplaintsPort, KeysPort, SessionsPort } from '../src/store/types.js';
import type { Tuning } from '../src/tuning.js';
import type { FinalAnalysis } from './final-analysis.js';

/** The model call's own time and failure, for the node's provider metrics and log. */
export interface ModelReport {
  ms: number;
  error?: string;
}

/** A whole-call analysis as the analyzer answers it: the analysis, and the model's report when one was asked. */
export interface AnalysisOutcome {
  result: FinalAnalysis;
  model?: ModelReport;
}

/**
 * Where whole-call analysis runs when not on this thread (the node's analysis workers). Either method may
 * refuse with `AnalyzerUnavailableError`: the caller then does the work itself.
 */
export interface Analyzer {
  /** The final analysis of a whole call. */
  run(input: ModelInput, signal: AbortSignal): Promise<AnalysisOutcome>;
  /** True when it holds the node's model, so that live scores may be asked of it. */
  readonly hasModel: boolean;
  /** The model's live scores of one running call; close it when the call ends. */
  openLive(): LiveScorer;
}

/** The analyzer could not take the job (none running, or not yet ready): analyse on this thread. */
export class AnalyzerUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AnalyzerUnavailableError';
  }
}

/** What a session writes: a started minute's debit, its record, the complaints it files. */
export interface SessionStore {
  keys: Pick<KeysPort, 'debit'>;
  sessions: Pick<SessionsPort, 'put'>;
  complaints: Pick<ComplaintsPort, 'file'>;
}

/** Every port a pipeline may be given. Providers are null when switched off or unavailable. */
export interface PipelinePorts {
  log: Logger;
  store: SessionStore;
  stt: SpeechToText | null;
  llm: ModelProvider | null;
  tts: TextToSpeech | null;
  /** Absent: whole-call analysis runs on this thread. */
  analyzer?: Analyzer;
  tuning?: Tuning;
  /** This node's id, stored with each session it runs. */
  nodeId: string;
  /** The honeypot's personas. */
  personas: readonly Persona[];
  /** The honeypot's generative chat model, made on first use; null when none is configured. */
  chat: () => ChatModel | null;
}

/** Only the ports named. */
export type PortsOf<K extends keyof PipelinePorts> = Pick<PipelinePorts, K>;
