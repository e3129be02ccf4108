/*
 * The scoring port over any generative backend: prompt, deadline, validation, injection guard.
 * A backend only has to turn (system, user, schema) into one raw JSON value.
 */
import { FINAL_ANALYSIS_MS } from '../../domain/limits.js';
import type { Assessment } from '../../domain/verdict.js';
import { asProviderError, withDeadline } from './deadline.js';
import { guardInjection } from './injection.js';
import { keepCallerQuotes } from './quotes.js';
import { MalformedOutput, repairAnalysis, repairAssessment } from './output.js';
import { outputSchema, systemPrompt, userMessage, type PromptMode } from './prompt.js';
import { ProviderError } from '../errors.js';
import type { Analysis, ModelInput, ModelProvider } from './types.js';

export interface StructuredRequest {
  system: string;
  user: string;
  schema: Record<string, unknown>;
  mode: PromptMode;
}

/** One structured completion: resolves to the parsed JSON value the model produced. */
export type StructuredBackend = (req: StructuredRequest, signal: AbortSignal) => Promise<unknown>;

export interface Timeouts {
  /** Bound of one live scoring call, ms (default 10 s: a tick every 30 s must not pile up). */
  liveMs?: number;
  /** Bound of the final analysis, ms (default 18 s: the spec allows 20 s for the whole of it). */
  finalMs?: number;
}

export const DEFAULT_LIVE_MS = 10_000;
/** The spec's 20 s less what the rules, intel and the record need after the model answers. */
export const DEFAULT_FINAL_MS = FINAL_ANALYSIS_MS - 2_000;

export function createGenerativeProvider(
  provider: string,
  id: string,
  backend: StructuredBackend,
  timeouts: Timeouts = {},
): ModelProvider {
  async function run<T extends Assessment>(
    input: ModelInput,
    mode: PromptMode,
    signal: AbortSignal,
    repair: (raw: unknown) => T,
  ): Promise<T> {
    const ms = mode === 'live' ? (timeouts.liveMs ?? DEFAULT_LIVE_MS) : (timeouts.finalMs ?? DEFAULT_FINAL_MS);
    const req = { system: systemPrompt(mode), user: userMessage(input, mode), schema: outputSchema(mode), mode };
    return withDeadline(provider, ms, signal, async (inner) => {
      let raw: unknown;
      try {
        raw = await backend(req, inner);
      } catch (err) {
        throw asProviderError(provider, err, inner);
      }
      try {
        // Quotes are checked before the guard adds its own (which quotes the caller verbatim).
        const repaired = keepCallerQuotes(input.callerText, repair(raw));
        return { ...repaired, ...guardInjection(input.callerText, repaired) };
      } catch (err) {
        if (err instanceof MalformedOutput) throw new ProviderError(provider, err.message, false);
        throw err;
      }
    });
  }

  return {
    id,
    scoreLive: (input, signal) => run(input, 'live', signal, repairAssessment),
    analyze: (input, signal) => run<Analysis>(input, 'final', signal, repairAnalysis),
  };
}
