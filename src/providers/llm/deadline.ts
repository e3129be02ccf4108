import { ProviderError } from '../errors.js';

/**
 * Runs one provider call under a deadline and the caller's AbortSignal.
 *
 * The work gets a signal that fires on either; the returned promise settles no later than the
 * deadline even if the work ignores its signal (a hung socket must not hold a session's final analysis).
 * A deadline becomes a retryable ProviderError; a caller's abort rejects with the signal's reason,
 * as fetch and the AWS SDK do, so the caller can tell "I cancelled" from "the provider failed".
 */
export async function withDeadline<T>(
  provider: string,
  timeoutMs: number,
  signal: AbortSignal,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  if (signal.aborted) throw abortReason(signal);
  const inner = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new ProviderError(provider, `model call timed out after ${timeoutMs} ms`, true);
      reject(err);
      inner.abort(err);
    }, timeoutMs);
    onAbort = () => {
      reject(abortReason(signal));
      inner.abort(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
  // The losing branch of the race must never surface as an unhandled rejection.
  stopped.catch(() => undefined);
  const running = work(inner.signal);
  running.catch(() => undefined);
  try {
    return await Promise.race([running, stopped]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/** Turns whatever a provider client threw into a ProviderError, keeping a timeout or the caller's abort as is. */
export function asProviderError(provider: string, err: unknown, signal: AbortSignal): unknown {
  if (err instanceof ProviderError) return err;
  if (signal.aborted) return signal.reason instanceof ProviderError ? signal.reason : err;
  const message = err instanceof Error ? err.message : String(err);
  return new ProviderError(provider, message || 'model call failed', false);
}
