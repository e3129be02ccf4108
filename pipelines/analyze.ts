import { finalAnalysis, type FinalAnalysis } from './final-analysis.js';
import { recordProviderCall } from '../src/observability/instrument.js';
import { metrics } from '../src/observability/metrics.js';
import type { Assessment } from '../src/domain/verdict.js';
import type { LiveScorer, ModelInput, ModelProvider } from '../src/providers/llm/types.js';
import { AnalyzerUnavailableError, type PortsOf } from './ports.js';

/**
 * The final analysis of a whole call: on an analysis worker when the node has them, otherwise (or when no
 * worker could take it, or the caller stopped waiting) on this thread. Either way the outcome is the same
 * function of the input, the model's call is counted in the provider metrics, and a model failure reaches
 * `onProviderError` with the rules' verdict kept.
 */
export async function analyzeCall(
  ports: PortsOf<'llm' | 'analyzer'>,
  input: ModelInput,
  signal: AbortSignal,
  onProviderError?: (e: Error) => void,
): Promise<FinalAnalysis> {
  if (ports.analyzer && !signal.aborted) {
    try {
      const { result, model } = await ports.analyzer.run(input, signal);
      metrics.analyses.inc({ on: 'worker' });
      if (model && ports.llm) {
        recordProviderCall(ports.llm.id, 'analyze', model.error === undefined, model.ms);
        if (model.error !== undefined) onProviderError?.(new Error(model.error));
      }
      return result;
    } catch {
      // Aborted, or no worker: below, an aborted signal fails the model at once and the rules' verdict stands.
    }
  }
  metrics.analyses.inc({ on: 'thread' });
  return finalAnalysis(input, ports.llm, signal, onProviderError);
}

/**
 * The model's live scores of one running call: on an analysis worker when the workers hold the node's
 * model (the embedded one), otherwise, or when none is ready, by `llm` on this thread. The score is the
 * same either way; what moves is the CPU, off the thread whose loop carries every call's audio. A model
 * that can keep a call's view between scores (`openLive`) is given only the new lines each time, wherever
 * it runs. Close it when the call ends.
 */
export function openLiveScoring(ports: PortsOf<'analyzer'>, llm: ModelProvider): LiveScorer {
  const analyzer = ports.analyzer;
  const onWorker = analyzer?.hasModel ? analyzer.openLive() : null;
  let here: LiveScorer | undefined;
  const onThisThread = (): LiveScorer =>
    (here ??= llm.openLive?.() ?? { score: (input, signal) => llm.scoreLive(input, signal), close: () => {} });
  return {
    score: async (input: ModelInput, signal: AbortSignal): Promise<Assessment> => {
      if (onWorker && !signal.aborted) {
        try {
          return await onWorker.score(input, signal);
        } catch (e) {
          // A model failure or an abort is the answer; only an analyzer that could not take the job falls back.
          if (!(e instanceof AnalyzerUnavailableError)) throw e;
        }
      }
      return onThisThread().score(input, signal);
    },
    close: () => {
      onWorker?.close();
      here?.close();
    },
  };
}
