/* What the main thread and an analysis worker say to each other (structured-clone data only). */
import type { AnalysisOutcome } from '../../pipelines/ports.js';
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

export type { ModelReport } from '../../pipelines/ports.js';

/** A job's answer: what the analyzer port answers (the analysis, and the model's report when one was asked). */
export type JobOutcome = AnalysisOutcome;

/** What each kind of job answers. */
export interface JobAnswers {
  analyze: JobOutcome;
  score_live: Assessment;
}

export type JobReply = { id: number; ok: true; answer: JobAnswers[JobKind] } | { id: number; ok: false; error: string };
