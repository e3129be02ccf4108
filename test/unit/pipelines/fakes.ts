/*
 * Fake ports for the live graph, and the one place a session context is put together from them:
 * when the pipeline's inputs change, this file changes, not the tests.
 */
import { Observable, Subject, type SchedulerLike } from 'rxjs';
import { loadConfig } from '../../../src/config.js';
import type { SessionEvent } from '../../../src/domain/events.js';
import type { Frame } from '../../../src/domain/frames.js';
import type { StoredSession } from '../../../src/domain/session.js';
import type { Assessment } from '../../../src/domain/verdict.js';
import { createLogger } from '../../../src/log.js';
import { pipelinePorts } from '../../../src/services.js';
import type { Analysis, ModelInput, ModelProvider } from '../../../src/providers/llm/types.js';
import type { SpeechToText, SttOptions, SttResult } from '../../../src/providers/stt/types.js';
import type { SessionOptions } from '../../../src/session/types.js';
import type { Complaint, KeyRecord, Store } from '../../../src/store/types.js';
import type { Pipeline, PipelineContext } from '../../../pipelines/types.js';

export const KEY: KeyRecord = {
  id: 'k1',
  hash: 'h1',
  label: 'test',
  credits: 0,
  created_at: new Date(0).toISOString(),
};

/** An in-memory store: a balance per key, the records written, the complaints filed. */
export interface FakeStore extends Store {
  debits: Array<{ keyId: string; credits: number; ok: boolean }>;
  records: StoredSession[];
  filed: Complaint[];
}

export function fakeStore(balance: number): FakeStore {
  const sessions = new Map<string, StoredSession>();
  const store: FakeStore = {
    kind: 'embedded',
    debits: [],
    records: [],
    filed: [],
    keys: {
      create: async () => {},
      findByHash: async () => null,
      list: async () => [],
      credit: async (_id, credits) => (balance = Math.max(0, balance + credits)),
      debit: async (keyId, credits) => {
        const ok = balance >= credits;
        if (ok) balance -= credits;
        store.debits.push({ keyId, credits, ok });
        return ok;
      },
      balance: async () => balance,
      revoke: async () => false,
      touch: async () => {},
    },
    sessions: {
      put: async (s) => {
        sessions.set(s.id, s);
        store.records.push(s);
      },
      get: async (id) => sessions.get(id) ?? null,
      listByKey: async () => [...sessions.values()],
      listOpen: async () => [],
      delete: async (id) => sessions.delete(id),
      purgeEnded: async () => 0,
      renewLeases: async () => {},
      listExpired: async () => [],
      closeExpired: async () => false,
    },
    complaints: {
      file: async (c) => (store.filed.push(c), true),
      status: async (number) => ({ number, reported: false, complaints: 0, categories: [] }),
      feed: async () => [],
    },
    domains: { put: async () => {}, get: async () => null },
    ping: async () => {},
    close: async () => {},
  };
  return store;
}

/** A model that answers live scores and the final analysis from scripts, noting when it was asked. */
export interface FakeLlm extends ModelProvider {
  liveCalls: Array<{ at: number; input: ModelInput }>;
  analyses: Array<{ at: number; input: ModelInput }>;
}

export function fakeLlm(
  scheduler: SchedulerLike,
  script: {
    live: (input: ModelInput, n: number) => Assessment | Error;
    /** Absent: the analysis never answers (until its signal aborts it). */
    analyze?: (input: ModelInput) => Analysis;
  },
): FakeLlm {
  const llm: FakeLlm = {
    id: 'fake:model',
    liveCalls: [],
    analyses: [],
    scoreLive: async (input) => {
      llm.liveCalls.push({ at: scheduler.now(), input });
      const out = script.live(input, llm.liveCalls.length);
      if (out instanceof Error) throw out;
      return out;
    },
    analyze: (input, signal) => {
      llm.analyses.push({ at: scheduler.now(), input });
      if (script.analyze) return Promise.resolve(script.analyze(input));
      return new Promise<Analysis>((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
      );
    },
  };
  return llm;
}

/** A streaming recogniser that hears each chunk of audio as the next line of a script. */
export function fakeStt(lines: string[]): SpeechToText & { asked: SttOptions[] } {
  const asked: SttOptions[] = [];
  return {
    id: 'fake:stt',
    sampleRate: 16000,
    wantsSegments: false,
    asked,
    transcribe: (audio, opts) => {
      asked.push(opts);
      return new Observable<SttResult>((sub) =>
        audio.subscribe({
          next: () => {
            const text = lines.shift();
            if (text !== undefined) sub.next({ text, final: true });
          },
          error: (e: unknown) => sub.error(e),
          complete: () => sub.complete(),
        }),
      );
    },
  };
}

export interface Ports {
  store: Store;
  llm?: ModelProvider | null;
  stt?: SpeechToText | null;
}

export interface RunningSession {
  frames$: Subject<Frame>;
  events: Array<{ at: number; event: SessionEvent }>;
  isDone(): boolean;
}

/** Starts one live session of `pipeline` on `scheduler` with these ports, recording its events as they come. */
export function startSession(
  pipeline: Pipeline,
  scheduler: SchedulerLike,
  ports: Ports,
  opts: Partial<SessionOptions> = {},
): RunningSession {
  const frames$ = new Subject<Frame>();
  const ctx: PipelineContext = {
    sessionId: '00000000-0000-4000-8000-00000000000f',
    spec: {
      kind: 'filter',
      protocol: 'raw',
      key: KEY,
      rawKey: 'raw-key',
      start: { from: '+12025550123', audio: { encoding: 'pcm16', sampleRate: 16000 }, params: {} },
      options: { report: false, tracksBoth: false, ...opts },
    },
    frames$,
    ports: pipelinePorts({
      config: loadConfig({ VOICE_NODE_ID: 'test-node' }),
      log: createLogger('silent'),
      store: ports.store,
      llm: ports.llm ?? null,
      stt: ports.stt ?? null,
      tts: null,
      personas: [],
    }),
    scheduler,
  };
  const events: RunningSession['events'] = [];
  let done = false;
  pipeline(ctx).events$.subscribe({
    next: (event) => events.push({ at: scheduler.now(), event }),
    complete: () => (done = true),
  });
  return { frames$, events, isDone: () => done };
}
