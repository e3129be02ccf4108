/*
 * An analysis worker thread: the rules and the embedded model over whole calls, for the node's main
 * thread (src/analysis/pool.ts). It holds its own copy of the model and answers one job at a time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { finalAnalysis } from '../../pipelines/final-analysis.js';
import { createLocalProvider } from '../providers/llm/local/provider.js';
import type { ModelProvider } from '../providers/llm/types.js';
import { warmUpRules } from '../rules/index.js';
import type { JobReply, JobRequest, WorkerOptions } from './protocol.js';

const options = workerData as WorkerOptions;
const model = options.model
  ? createLocalProvider(options.model.modelPath ? { modelPath: options.model.modelPath } : {})
  : null;
warmUpRules();

/** The model's own time per call, reported with the result so the main thread's metrics stay whole. */
let modelMs = 0;
const llm: ModelProvider | null = model && {
  ...model,
  analyze: async (input, signal) => {
    const t0 = performance.now();
    try {
      return await model.analyze(input, signal);
    } finally {
      modelMs = performance.now() - t0;
    }
  },
};
// Nothing here waits on anything but the CPU, so the signal never fires; it is what the API takes.
const signal = new AbortController().signal;

parentPort!.on('message', (job: JobRequest) => {
  void (async () => {
    let modelError: string | undefined;
    try {
      const result = await finalAnalysis(job.input, llm, signal, (e) => (modelError = e.message));
      const reply: JobReply = {
        id: job.id,
        ok: true,
        result,
        model: llm && job.input.callerText.trim() ? { ms: modelMs, error: modelError } : undefined,
      };
      parentPort!.postMessage(reply);
    } catch (err) {
      parentPort!.postMessage({ id: job.id, ok: false, error: String(err) } satisfies JobReply);
    }
  })();
});
parentPort!.postMessage({ ready: true });
