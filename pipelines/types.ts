import type { Observable, SchedulerLike } from 'rxjs';
import type { SessionEvent } from '../src/domain/events.js';
import type { Frame, OutboundFrame } from '../src/domain/frames.js';
import type { SessionSpec } from '../src/session/types.js';
import type { PipelinePorts } from './ports.js';

/** Everything a session pipeline is built from. The pipeline never knows the transport or vendor. */
export interface PipelineContext {
  sessionId: string;
  spec: SessionSpec;
  /** Inbound frames after the start message; completes after a `stop` frame. */
  frames$: Observable<Frame>;
  /** The providers, store, log and tuning the graph may use (see ./ports.ts). */
  ports: PipelinePorts;
  /** Drives every timer (start, cadence, silence, limits, metering): a TestScheduler in tests. */
  scheduler: SchedulerLike;
  /**
   * Emits once when the node starts shutting down: the scheduler time by which it must have drained.
   * The session's end (speech flush, final analysis) is cut to fit what remains.
   */
  shutdown$?: Observable<number>;
}

export interface PipelineOutput {
  /** Session events in order; the last is `session.ended`, then it completes. */
  events$: Observable<SessionEvent>;
  /** Honeypot audio/clear/mark/hangup; EMPTY for the filter. */
  outbound$: Observable<OutboundFrame>;
}

export type Pipeline = (ctx: PipelineContext) => PipelineOutput;

/** A stage's view of the context: the same session, with only the ports named. */
export type StageContext<K extends keyof PipelinePorts> = Omit<PipelineContext, 'ports'> & {
  ports: Pick<PipelinePorts, K>;
};
