import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { finalAnalysis } from '../../../pipelines/final-analysis.js';
import { analyzeCall, openLiveScoring } from '../../../pipelines/analyze.js';
import { AnalysisPool, PoolUnavailableError } from '../../../src/analysis/pool.js';
import type { JobReply, JobRequest, LiveEnd } from '../../../src/analysis/protocol.js';
import { startWorker } from '../../../src/analysis/start-worker.js';
import { metrics } from '../../../src/observability/metrics.js';
import { createLocalProvider } from '../../../src/providers/llm/local/provider.js';
import type { ModelInput } from '../../../src/providers/llm/types.js';
import { callerText, parseTranscript } from '../../../src/rules/index.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const calls: ModelInput[] = fs
  .readFileSync(path.join(root, 'test/fixtures/scam-calls.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .slice(0, 12)
  .map((l) => {
    const utterances = parseTranscript((JSON.parse(l) as { transcript: string }).transcript);
    return { utterances, callerText: callerText(utterances), product: 'scan' as const };
  });
const open = (): AbortSignal => new AbortController().signal;
/** A running call as the live model sees it after `n` utterances: the utterances so far, and the caller's. */
const soFar = (c: ModelInput, n: number): ModelInput => {
  const utterances = c.utterances.slice(0, n);
  return { utterances, callerText: callerText(utterances), product: 'filter' };
};
type Slots = { slots: Array<{ worker: { terminate(): Promise<number> }; up: Promise<boolean> }> };
/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}

async function analyzeCalls(op: string): Promise<number> {
  const m = await metrics.providerCalls.get();
  return m.values.filter((v) => v.labels.op === op && v.labels.outcome === 'ok').reduce((n, v) => n + v.value, 0);
}

describe('analysis workers', function () {
  this.timeout(30_000);
  const llm = createLocalProvider();
  let pool: AnalysisPool;
  beforeEach(async function () {
    pool = new AnalysisPool(2, { model: {} });
    expect(await pool.start()).to.equal(2);
  });
  afterEach(async function () {
    await pool.close();
  });

  it('give exactly what the analysis on this thread gives, for calls analysed concurrently', async function () {
    const inThread = await Promise.all(calls.map((c) => finalAnalysis(c, llm, open())));
    const onWorkers = await Promise.all(calls.map((c) => pool.run(c, open())));
    expect(onWorkers.map((o) => o.result)).to.deep.equal(inThread);
    expect(onWorkers.every((o) => o.model && o.model.error === undefined && o.model.ms >= 0)).to.equal(true);
  });

  it('without a model, give the rules’ analysis and report no model call', async function () {
    const rulesOnly = new AnalysisPool(1, {});
    try {
      await rulesOnly.start();
      const out = await rulesOnly.run(calls[0]!, open());
      expect(out.result).to.deep.equal(await finalAnalysis(calls[0]!, null, open()));
      expect(out.model).to.equal(undefined);
    } finally {
      await rulesOnly.close();
    }
  });

  it('score running calls, sent only their new lines, with exactly the whole-call scores on this thread', async function () {
    await Promise.all(
      calls.map(async (c) => {
        const live = pool.openLive();
        for (let n = 1; n <= c.utterances.length; n += 2) {
          const input = soFar(c, n);
          expect(await live.score(input, open())).to.deep.equal(await llm.scoreLive(input, open()));
        }
        live.close();
      }),
    );
    expect((await llm.scoreLive(soFar(calls[0]!, 99), open())).score).to.be.above(0);
  });

  it('start a running call over, from the whole call, on another worker when its worker dies', async function () {
    const c = calls[4]!;
    const live = pool.openLive();
    await live.score(soFar(c, 2), open());
    const slots = (pool as unknown as Slots).slots;
    const victims = slots.slice();
    for (const s of victims) await s.worker.terminate();
    while (slots.some((s) => victims.includes(s))) await new Promise((r) => setImmediate(r));
    // The replacements are starting: the score is refused (its caller scores on its own thread).
    expect(await rejection(live.score(soFar(c, 4), open()))).to.be.instanceOf(PoolUnavailableError);
    await Promise.all(slots.map((s) => s.up));
    const input = soFar(c, c.utterances.length);
    expect(await live.score(input, open())).to.deep.equal(await llm.scoreLive(input, open()));
    live.close();
  });

  it('refuse live scores when they hold no model; openLiveScoring then scores on this thread', async function () {
    const rulesOnly = new AnalysisPool(1, {});
    try {
      await rulesOnly.start();
      expect(await rejection(rulesOnly.openLive().score(calls[0]!, open()))).to.be.instanceOf(PoolUnavailableError);
      const lazy = new AnalysisPool(1, { model: {} }); // not started: its first job is refused while it starts
      try {
        const live = openLiveScoring({ analyzer: lazy }, llm);
        const early = soFar(calls[0]!, 3);
        expect(await live.score(early, open())).to.deep.equal(await llm.scoreLive(early, open()));
        expect(await lazy.start()).to.equal(1);
        // Now on the worker, which is sent the whole call so far: the same score as on this thread.
        expect(await live.score(calls[0]!, open())).to.deep.equal(await llm.scoreLive(calls[0]!, open()));
        live.close();
      } finally {
        await lazy.close();
      }
    } finally {
      await rulesOnly.close();
    }
  });

  it('analyzeCall counts the model call in the provider metrics, as the in-thread path does', async function () {
    const before = await analyzeCalls('analyze');
    await analyzeCall({ llm, analyzer: pool }, calls[1]!, open());
    expect((await analyzeCalls('analyze')) - before).to.equal(1);
  });

  it('a caller that stops waiting gets its abort reason; analyzeCall then keeps the rules’ verdict', async function () {
    const ctrl = new AbortController();
    const pending = pool.run(calls[0]!, ctrl.signal);
    ctrl.abort(new Error('client went away'));
    expect((await rejection(pending)).message).to.equal('client went away');

    const errors: string[] = [];
    const out = await analyzeCall({ llm, analyzer: pool }, calls[0]!, ctrl.signal, (e) => errors.push(e.message));
    expect(out.verdict.source).to.equal('heuristic');
    expect(out.verdict).to.deep.equal((await finalAnalysis(calls[0]!, null, open())).verdict);
    expect(errors).to.deep.equal(['client went away']);
  });

  it('a worker that dies fails its jobs to the caller and is replaced', async function () {
    const victim = (pool as unknown as Slots).slots[0]!;
    const jobs = calls.map((c) =>
      pool.run(c, open()).then(
        () => 'ok',
        (e: unknown) => (e instanceof PoolUnavailableError ? 'unavailable' : 'other'),
      ),
    );
    await victim.worker.terminate();
    const outcomes = await Promise.all(jobs);
    expect(outcomes).to.include('unavailable');
    expect(outcomes).not.to.include('other');
    expect(pool.workers).to.equal(2);
    const again = await pool.run(calls[2]!, open());
    expect(again.result).to.deep.equal(await finalAnalysis(calls[2]!, llm, open()));
  });

  it('workers that cannot start are not replaced, and analyzeCall analyses on this thread instead', async function () {
    const broken = new AnalysisPool(1, { model: { modelPath: path.join(root, 'no-such-model.json') } });
    try {
      expect(await broken.start()).to.equal(0);
      expect(broken.workers).to.equal(0);
      const err = await rejection(broken.run(calls[3]!, open()));
      expect(err).to.be.instanceOf(PoolUnavailableError);
      expect(err.message).to.match(/no worker running/);
      const out = await analyzeCall({ llm, analyzer: broken }, calls[3]!, open());
      expect(out).to.deep.equal(await finalAnalysis(calls[3]!, llm, open()));
    } finally {
      await broken.close();
    }
  });

  it('start with the first job, which (like any before a worker is ready) is left to the caller', async function () {
    const lazy = new AnalysisPool(1, { model: {} });
    try {
      expect(lazy.workers).to.equal(0);
      const err = await rejection(lazy.run(calls[0]!, open()));
      expect(err).to.be.instanceOf(PoolUnavailableError);
      expect(err.message).to.match(/starting/);
      expect(lazy.workers).to.equal(1);
      expect(await lazy.start()).to.equal(1);
      expect((await lazy.run(calls[0]!, open())).result).to.deep.equal(await finalAnalysis(calls[0]!, llm, open()));
    } finally {
      await lazy.close();
    }
  });

  it('answer a process that has nothing else to do, and do not hold it open once idle', async function () {
    // Were an idle worker to hold the process, it would never exit and this test would time out; were the
    // answer's arrival not to hold it, it would exit without printing. (Node 20 keeps a process alive
    // while a worker's reply is in flight even without the pool's `ref`, so the first is what can fail here.)
    const script = [
      `import { AnalysisPool } from ${JSON.stringify(pathToFileURL(path.join(root, 'src/analysis/pool.ts')).href)};`,
      'const pool = new AnalysisPool(1, {});',
      'const keep = setInterval(() => undefined, 1000);',
      'await pool.start();',
      'clearInterval(keep);',
      "const input = { utterances: [], callerText: 'pay with gift cards today or you will be arrested', product: 'scan' };",
      "pool.run(input, new AbortController().signal).then((o) => console.log('LEVEL', o.result.verdict.level));",
    ].join('\n');
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script],
        { cwd: root, timeout: 20_000 },
        (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)),
      ),
    );
    expect(out.trim()).to.match(/^LEVEL (scam|likely_scam)$/);
  });

  it('a closed pool takes no jobs', async function () {
    await pool.close();
    const err = await rejection(pool.run(calls[0]!, open()));
    expect(err).to.be.instanceOf(PoolUnavailableError);
    expect(err.message).to.match(/closed/);
  });
});

describe('analysis worker: running calls', function () {
  this.timeout(30_000);

  it('keeps a running call between scores and lets it go at live_end (no view outlives its call)', async function () {
    const worker = startWorker({ model: {} });
    try {
      const replies = new Map<number, (r: JobReply) => void>();
      const ready = new Promise<void>((resolve) =>
        worker.on('message', (m: JobReply | { ready: true }) => ('ready' in m ? resolve() : replies.get(m.id)?.(m))),
      );
      await ready;
      let id = 0;
      const ask = (job: Omit<Extract<JobRequest, { kind: 'score_live' }>, 'id'>): Promise<JobReply> =>
        new Promise((resolve) => {
          replies.set(++id, resolve);
          worker.postMessage({ ...job, id } satisfies JobRequest);
        });
      const lines = ['this is the social security administration', 'pay with google play gift cards today'];
      expect((await ask({ kind: 'score_live', call: 7, lines: lines.slice(0, 1), fresh: true })).ok).to.equal(true);
      const second = await ask({ kind: 'score_live', call: 7, lines: lines.slice(1), fresh: false });
      expect(second.ok && second.answer).to.deep.equal(createLocalProvider().openLive().scoreLines(lines));
      worker.postMessage({ kind: 'live_end', call: 7 } satisfies LiveEnd);
      const after = await ask({ kind: 'score_live', call: 7, lines: ['hello'], fresh: false });
      expect(after.ok).to.equal(false);
      expect(!after.ok && after.error).to.match(/not known/);
    } finally {
      await worker.terminate();
    }
  });
});
