/* What the main thread and an analysis worker say to each other (structured-clone data only). */
import type { FinalAnalysis } from '../../pipelines/final-analysis.js';
import type { Assessment } from '../domain/verdict.js';
import type { ModelInput } from '../providers/llm/types.js';

export interface WorkerOptions {
  /** The embedded model to load, or absent when the node runs without a model (rules only). */
  model?: { modelPath?: string };
}

/**
 * A worker's jobs: `analyze`, the final analysis of a whole call (scans, ended live calls); `score_live`,
 * the embedded model's score of a running call (every 30 s of it), for nodes whose workers hold the model.
 */
export type JobKind = 'analyze' | 'score_live';

export interface JobRequest {
  id: number;
  kind: JobKind;
  input: ModelInput;
}

/** The model call's own time and failure, for the node's provider metrics and log. */
export interface ModelReport {
  ms: number;
  error?: string;
}

/** A job's answer: the analysis, and the model's report when a model was asked. */
export interface JobOutcome {
  result: FinalAnalysis;
  model?: ModelReport;
}

/** What each kind of job answers. */
export interface JobAnswers {
  analyze: JobOutcome;
  score_live: Assessment;
}

export type JobReply = { id: number; ok: true; answer: JobAnswers[JobKind] } | { id: number; ok: false; error: string };
