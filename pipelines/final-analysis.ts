import { combine } from '../src/domain/combine.js';
import { mergeIntel, type Intel } from '../src/domain/intel.js';
import { CLEAN_VERDICT, type Verdict } from '../src/domain/verdict.js';
import type { Analysis, ModelInput, ModelProvider } from '../src/providers/llm/types.js';
import { callShape, scoreText } from '../src/rules/index.js';
import { canonicalIntel } from '../src/rules/intel/extract.js';
import { withSettledSubject } from '../src/rules/subjects.js';

export interface FinalAnalysis {
  verdict: Verdict;
  intel: Intel;
}

/**
 * One full analysis of a finished call: the rules over everything the caller said, plus the model's
 * `analyze` when a model is configured. A model failure or abort never loses the verdict: the rules'
 * verdict stands and `onProviderError` hears why (the live graph turns it into `session.error`).
 * The caller bounds the time (20 s on live sessions) through `signal`.
 */
export async function finalAnalysis(
  input: ModelInput,
  llm: ModelProvider | null,
  signal: AbortSignal,
  onProviderError?: (e: Error) => void,
): Promise<FinalAnalysis> {
  // The whole call is known here, so the caller's requests are read in the context of its shape.
  const rules = scoreText(input.callerText, callShape(input.utterances));
  let model: Analysis | null = null;
  if (llm && input.callerText.trim()) {
    try {
      model = await raceAbort(() => llm.analyze(input, signal), signal);
    } catch (e) {
      onProviderError?.(e instanceof Error ? e : new Error(String(e)));
    }
  }
  const verdict = withSettledSubject(combine(rules, model) ?? CLEAN_VERDICT, input.callerText);
  const intel = mergeIntel(rules.intel, canonicalIntel(model?.intel));
  return { verdict, intel };
}

/**
 * A provider that ignores its signal must not hold the session past its bound. One asked with a signal
 * already aborted is not asked at all: its failure would have nobody listening (an unhandled rejection).
 */
function raceAbort<T>(start: () => Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError(signal));
  const work = start();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new Error('final analysis timed out; rules verdict kept');
}
