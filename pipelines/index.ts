import type { SessionKind } from '../src/domain/events.js';
import { filterPipeline } from './filter.js';
import { honeypotPipeline } from './honeypot/pipeline.js';
import type { Pipeline } from './types.js';

/** The pipeline each kind of live session runs; a session actor picks by `spec.kind`. */
export const livePipelines: Partial<Record<SessionKind, Pipeline>> = {
  filter: filterPipeline,
  honeypot: honeypotPipeline,
};
