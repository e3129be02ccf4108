/*
 * An analysis worker thread: the rules and the embedded model over whole calls, and the model's live scores
 * of running ones, for the node's main thread (src/analysis/pool.ts). It holds its own copy of the model.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { finalAnalysis } from '../../pipelines/final-analysis.js';
import { createLocalProvider, type LocalLiveScorer } from '../providers/llm/local/provider.js';
import type { ModelProvider } from '../providers/llm/types.js';
import { warmUpRules } from '../rules/index.js';
import type { JobAnswers, JobKind, JobReply, JobRequest, LiveEnd, ModelReport, WorkerOptions } from './protocol.js';

const options = workerData as WorkerOptions;
const model = options.model
  ? createLocalProvider(options.model.modelPath ? { modelPath: options.model.modelPath } : {})
  : null;
warmUpRules();

// Nothing here waits on anything but the CPU, so the signal never fires; it is what the API takes.
const signal = new AbortController().signal;

/** The model as this job sees it: its own call timed, so the main thread's provider metrics stay whole. */
function timedModel(report: { model?: ModelReport }): ModelProvider | null {
  return (
    model && {
      ...model,
      analyze: async (input, s) => {
        const t0 = performance.now();
        report.model = { ms: 0 };
        try {
          return await model.analyze(input, s);
        } catch (e) {
          report.model.error = e instanceof Error ? e.message : String(e);
          throw e;
        } finally {
          report.model.ms = performance.now() - t0;
        }
      },
    }
  );
}

/** The running calls scored here, by the main thread's call number. */
const live = new Map<number, LocalLiveScorer>();

parentPort!.on('message', (job: JobRequest | LiveEnd) => {
  if (job.kind === 'live_end') {
    live.delete(job.call);
    return;
  }
  void answerTo(job).then(
    (answer) => parentPort!.postMessage({ id: job.id, ok: true, answer } satisfies JobReply),
    (err: unknown) => parentPort!.postMessage({ id: job.id, ok: false, error: String(err) } satisfies JobReply),
  );
});
parentPort!.postMessage({ ready: true });

async function answerTo(job: JobRequest): Promise<JobAnswers[JobKind]> {
  switch (job.kind) {
    case 'analyze': {
      // A model failure keeps the rules' verdict; the report carries the error to the main thread's log.
      const report: { model?: ModelReport } = {};
      const result = await finalAnalysis(job.input, timedModel(report), signal);
      return { result, ...report };
    }
    case 'score_live': {
      if (!model) throw new Error('this worker holds no model');
      if (job.fresh) live.set(job.call, model.openLive());
      const call = live.get(job.call);
      if (!call) throw new Error(`live call ${job.call} is not known to this worker`);
      return call.scoreLines(job.lines);
    }
  }
}
