/* What the main thread and an analysis worker say to each other (structured-clone data only). */
import type { FinalAnalysis } from '../../pipelines/final-analysis.js';
import type { ModelInput } from '../providers/llm/types.js';

export interface WorkerOptions {
  /** The embedded model to load, or absent when the node runs without a model (rules only). */
  model?: { modelPath?: string };
}

export interface JobRequest {
  id: number;
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

export type JobReply = ({ id: number; ok: true } & JobOutcome) | { id: number; ok: false; error: string };
