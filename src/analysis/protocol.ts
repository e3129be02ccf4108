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
 * A worker keeps each running call's view of the model between its scores, so a score carries only the
 * caller's lines said since the last one sent to that worker (`fresh`: the first, or after a failure: the
 * worker starts the call's view anew from them). `live_end` lets the view go; it has no answer.
 */
export type JobKind = 'analyze' | 'score_live';

export type Job =
  { kind: 'analyze'; input: ModelInput } | { kind: 'score_live'; call: number; lines: string[]; fresh: boolean };

export type JobRequest = Job & { id: number };

export interface LiveEnd {
  kind: 'live_end';
  call: number;
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
