/**
 * How a node's shutdown fits the orchestrator's grace (the time between SIGTERM and SIGKILL: Kubernetes
 * 30 s by default, `docker stop` 10 s). The drain (`VOICE_DRAIN_SECONDS`) is the part of the grace live
 * calls may use; what a call does at its end is cut to fit what remains of it.
 */

/** 20 s of drain and about 2 s of closing after it fit Kubernetes' default 30 s grace with room to spare. */
export const DEFAULT_DRAIN_SECONDS = 20;

/**
 * Kept back from the drain for what follows a call's final analysis: filing and the record (the store),
 * the webhook post of `session.ended` (bounded at 5 s) and the socket's close.
 */
export const ENDING_RESERVE_MS = 7_000;

/** After the drain, how long the node waits for its sockets to flush and finish their close handshakes. */
export const CLOSE_LINGER_MS = 2_000;

/** Time left for the final analysis, at `now`, of a node that must have drained by `deadline`. */
export function shutdownAnalysisMs(deadline: number, now: number): number {
  return Math.max(0, deadline - ENDING_RESERVE_MS - now);
}

/** Speech-to-text's flush after the stop takes at most half of what the analysis would have had. */
export function shutdownFlushMs(deadline: number, now: number): number {
  return Math.floor(shutdownAnalysisMs(deadline, now) / 2);
}
