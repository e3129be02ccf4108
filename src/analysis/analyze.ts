import { finalAnalysis, type FinalAnalysis } from '../../pipelines/final-analysis.js';
import { recordProviderCall } from '../observability/instrument.js';
import { metrics } from '../observability/metrics.js';
import type { ModelInput } from '../providers/llm/types.js';
import type { Services } from '../services.js';

/**
 * The final analysis of a whole call: on an analysis worker when the node has them, otherwise (or when no
 * worker could take it, or the caller stopped waiting) on this thread. Either way the outcome is the same
 * function of the input, the model's call is counted in the provider metrics, and a model failure reaches
 * `onProviderError` with the rules' verdict kept.
 */
export async function analyzeCall(
  services: Pick<Services, 'llm' | 'analysis'>,
  input: ModelInput,
  signal: AbortSignal,
  onProviderError?: (e: Error) => void,
): Promise<FinalAnalysis> {
  if (services.analysis && !signal.aborted) {
    try {
      const { result, model } = await services.analysis.run(input, signal);
      metrics.analyses.inc({ on: 'worker' });
      if (model && services.llm) {
        recordProviderCall(services.llm.id, 'analyze', model.error === undefined, model.ms);
        if (model.error !== undefined) onProviderError?.(new Error(model.error));
      }
      return result;
    } catch {
      // Aborted, or no worker: below, an aborted signal fails the model at once and the rules' verdict stands.
    }
  }
  metrics.analyses.inc({ on: 'thread' });
  return finalAnalysis(input, services.llm, signal, onProviderError);
}
