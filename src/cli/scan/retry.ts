/*
 * A batch against a node meets its rate limit (600 requests a minute per key by default) within seconds
 * at any real concurrency. The node says how long to wait (`Retry-After`); a batch tool that gave up on
 * the first 429 would fail most of a large folder, so it waits as told and carries on.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';
import { VoiceApiError } from '../../client/index.js';

export interface RetryPolicy {
  /** Total seconds one file may spend waiting on the node's limits before it is recorded as failed. */
  maxWaitSeconds: number;
  /** Called before each wait (progress notes). */
  onWait?: (seconds: number, error: VoiceApiError) => void;
  /** Injected in tests; resolves after `ms` or rejects when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const defaultSleep = (ms: number, signal: AbortSignal): Promise<void> => sleepFor(ms, undefined, { signal });

/**
 * The seconds to wait before trying again, or undefined when the error is final. A 503 is retried only
 * with a `Retry-After`: without one it means the feature is off, which waiting does not change.
 */
export function retryDelay(e: unknown): number | undefined {
  if (!(e instanceof VoiceApiError)) return undefined;
  if (e.status === 429) return Math.max(1, e.retryAfterSeconds ?? 1);
  if (e.status === 503 && e.retryAfterSeconds !== undefined) return Math.max(1, e.retryAfterSeconds);
  return undefined;
}

/** Runs `attempt` until it succeeds, fails for good, or the file's waiting budget is spent. */
export async function withRetryAfter<T>(
  attempt: () => Promise<T>,
  signal: AbortSignal,
  policy: RetryPolicy,
): Promise<T> {
  const sleep = policy.sleep ?? defaultSleep;
  let waited = 0;
  for (;;) {
    try {
      return await attempt();
    } catch (e) {
      const delay = retryDelay(e);
      if (delay === undefined || waited + delay > policy.maxWaitSeconds || signal.aborted) throw e;
      policy.onWait?.(delay, e as VoiceApiError);
      await sleep(delay * 1000, signal);
      waited += delay;
    }
  }
}
