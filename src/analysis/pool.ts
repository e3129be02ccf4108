import type { Worker } from 'node:worker_threads';
import { AnalyzerUnavailableError, type Analyzer } from '../../pipelines/ports.js';
import type { Logger } from '../log.js';
import type { LiveScorer, ModelInput } from '../providers/llm/types.js';
import { callerLines } from '../rules/index.js';
import type { Job, JobAnswers, JobKind, JobOutcome, JobReply, JobRequest, LiveEnd, WorkerOptions } from './protocol.js';
import { startWorker } from './start-worker.js';

interface Pending {
  resolve: (answer: JobAnswers[JobKind]) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  inflight: Map<number, Pending>;
  /** Settles once the worker is ready (true) or gone before it was (false). */
  up: Promise<boolean>;
  settleUp: (ready: boolean) => void;
}

/** No worker could take the job (all failed to start, or the pool is closed): analyse on this thread. */
export class PoolUnavailableError extends AnalyzerUnavailableError {
  constructor(reason: string) {
    super(`analysis workers unavailable: ${reason}`);
    this.name = 'PoolUnavailableError';
  }
}

/**
 * Worker threads that run the final analysis of whole calls (the rules and the embedded model) off the
 * node's main thread: scans, and live calls as they end. That thread carries every live call's frames and
 * every HTTP request; a burst of scans (or of calls ending together) analysed on it would lag them all, and
 * would cap scan throughput at one core whatever the machine.
 *
 * Workers start with the first job, not at boot: each holds its own model and heap, which a node that
 * never analyses a call should not pay for. Until one is ready, jobs are refused with
 * `PoolUnavailableError` and the caller analyses them itself, so the first jobs do not wait on a start.
 *
 * A job goes to the ready worker with the fewest jobs in flight. A worker that dies fails its jobs the
 * same way and is replaced, unless it died before it ever became ready: then the cause is not transient
 * (a missing model file) and the pool shrinks.
 */
export class AnalysisPool implements Analyzer {
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private nextCall = 1;
  private started: Promise<number> | null = null;
  private closed = false;

  constructor(
    readonly size: number,
    private readonly options: WorkerOptions,
    private readonly log?: Logger,
  ) {}

  /** Workers running (ready or starting). */
  get workers(): number {
    return this.slots.length;
  }

  /** Starts the workers (once); resolves when each is ready or gone, with how many are ready. */
  start(): Promise<number> {
    if (!this.started) {
      const ups = Array.from({ length: this.closed ? 0 : this.size }, () => this.spawn().up);
      this.started = Promise.all(ups).then((r) => r.filter(Boolean).length);
    }
    return this.started;
  }

  /** The final analysis of a whole call. */
  run(input: ModelInput, signal: AbortSignal): Promise<JobOutcome> {
    return this.dispatch({ kind: 'analyze', input }, signal, this.leastLoaded());
  }

  /** True when the workers hold the embedded model, so that `openLive` scores may be asked of them. */
  get hasModel(): boolean {
    return this.options.model !== undefined;
  }

  /**
   * The embedded model's live scores of one running call (only when `hasModel`). The call stays on one
   * worker, which keeps its view of the model between scores, so each score sends only the caller's new
   * lines. When that worker is gone, or a score failed, the next score starts the view anew on whichever
   * worker is least busy, from the whole call.
   */
  openLive(): LiveScorer {
    const call = this.nextCall++;
    let slot: Slot | undefined;
    let seen = 0;
    const forget = (): void => {
      if (slot && this.slots.includes(slot)) slot.worker.postMessage({ kind: 'live_end', call } satisfies LiveEnd);
      slot = undefined;
      seen = 0;
    };
    return {
      score: async (input, signal) => {
        if (!this.hasModel) throw new PoolUnavailableError('the workers hold no model');
        if (slot && !this.slots.includes(slot)) forget();
        const fresh = !slot;
        slot ??= this.leastLoaded();
        const lines = callerLines(input.utterances, fresh ? 0 : seen);
        seen = input.utterances.length;
        try {
          return await this.dispatch({ kind: 'score_live', call, lines, fresh }, signal, slot);
        } catch (e) {
          forget();
          throw e;
        }
      },
      close: forget,
    };
  }

  private dispatch<K extends JobKind>(
    job: Extract<Job, { kind: K }>,
    signal: AbortSignal,
    slot: Slot | undefined,
  ): Promise<JobAnswers[K]> {
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    void this.start();
    if (!slot) {
      const why = this.closed ? 'pool closed' : this.slots.length > 0 ? 'workers starting' : 'no worker running';
      return Promise.reject(new PoolUnavailableError(why));
    }
    const id = this.nextId++;
    return new Promise<JobAnswers[K]>((resolve, reject) => {
      const onAbort = (): void => {
        this.settle(slot, id);
        reject(signal.reason as Error);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.owe(slot, id, {
        resolve: (answer) => {
          signal.removeEventListener('abort', onAbort);
          // The worker answers a job with the answer of its kind.
          resolve(answer as JobAnswers[K]);
        },
        reject: (e) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      });
      slot.worker.postMessage({ ...job, id } as JobRequest);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    for (const s of slots) {
      s.settleUp(false);
      this.fail(s, 'pool closed');
    }
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private leastLoaded(): Slot | undefined {
    let best: Slot | undefined;
    for (const s of this.slots) if (s.ready && (!best || s.inflight.size < best.inflight.size)) best = s;
    return best;
  }

  private spawn(): Slot {
    const worker = startWorker(this.options);
    worker.unref(); // until it owes an answer (`owe`)
    let settleUp!: (ready: boolean) => void;
    const up = new Promise<boolean>((resolve) => (settleUp = resolve));
    const slot: Slot = { worker, ready: false, inflight: new Map(), up, settleUp };
    this.slots.push(slot);
    worker.on('message', (m: JobReply | { ready: true }) => {
      if ('ready' in m) {
        slot.ready = true;
        slot.settleUp(true);
        return;
      }
      const pending = this.settle(slot, m.id);
      if (!pending) return; // its caller stopped waiting (aborted)
      if (m.ok) pending.resolve(m.answer);
      else pending.reject(new Error(m.error));
    });
    worker.on('error', (err) => this.lost(slot, err));
    worker.on('exit', (code) => this.lost(slot, new Error(`exited with code ${code}`)));
    return slot;
  }

  private lost(slot: Slot, err: Error): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return; // already handled ('error' is followed by 'exit'), or closed
    this.slots.splice(i, 1);
    slot.settleUp(false);
    this.fail(slot, err.message);
    if (this.closed) return;
    if (slot.ready) {
      this.log?.error({ err }, 'analysis worker died; starting another');
      this.spawn();
    } else {
      this.log?.error({ err, workers: this.slots.length }, 'analysis worker failed to start; not replaced');
    }
  }

  /**
   * A worker holds the process open only while it owes an answer: an idle pool never keeps a CLI from
   * exiting, and a caller awaiting a worker is never left behind by a process with nothing else to do.
   */
  private owe(slot: Slot, id: number, pending: Pending): void {
    if (slot.inflight.size === 0) slot.worker.ref();
    slot.inflight.set(id, pending);
  }

  private settle(slot: Slot, id: number): Pending | undefined {
    const pending = slot.inflight.get(id);
    if (pending && slot.inflight.delete(id) && slot.inflight.size === 0) slot.worker.unref();
    return pending;
  }

  private fail(slot: Slot, reason: string): void {
    const owed = [...slot.inflight.values()];
    slot.inflight.clear();
    slot.worker.unref();
    for (const p of owed) p.reject(new PoolUnavailableError(reason));
  }
}
