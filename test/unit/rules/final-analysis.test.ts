import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { fileComplaints } from '../../../pipelines/filing.js';
import { finalAnalysis } from '../../../pipelines/final-analysis.js';
import { toVerdict } from '../../../src/domain/verdict.js';
import type { Analysis, ModelInput, ModelProvider } from '../../../src/providers/llm/types.js';
import { ProviderError } from '../../../src/providers/errors.js';
import { callerText, parseTranscript } from '../../../src/rules/index.js';
import { createLocalProvider } from '../../../src/providers/llm/local/provider.js';
import { createEmbeddedStore } from '../../../src/store/index.js';
import type { Store } from '../../../src/store/types.js';

const SCAM =
  'caller: This is the IRS. A warrant has been issued for your arrest. Pay with Google Play gift cards. Call 202-555-0147.';
const input = (t: string): ModelInput => {
  const utterances = parseTranscript(t);
  return { utterances, callerText: callerText(utterances), product: 'scan' };
};

/** The model port in-process: the rules' partner answers from a script, as a model server would. */
function scripted(answer: (i: ModelInput, s: AbortSignal) => Promise<Analysis>): ModelProvider {
  return { id: 'scripted:test', scoreLive: (i, s) => answer(i, s), analyze: answer };
}

describe('pipelines/final-analysis', () => {
  it('rules alone give a heuristic verdict and the rules’ intel', async () => {
    const { verdict, intel } = await finalAnalysis(input(SCAM), null, new AbortController().signal);
    expect(verdict.source).to.equal('heuristic');
    expect(verdict.level).to.equal('scam');
    expect(verdict.category).to.equal('Tax Collection');
    expect(intel.callback_numbers).to.deep.equal(['+12025550147']);
  });

  it('combines with the model: model summary, union of intel, rules never lower the model', async () => {
    const llm = scripted(async () => ({
      score: 0.97,
      category: 'Tax Collection',
      tactics: ['threat'],
      signals: ['model saw a threat'],
      summary: 'Caller posed as the IRS and demanded gift cards. Classic tax scam.',
      intel: { names: ['Officer Brooks'] },
    }));
    const { verdict, intel } = await finalAnalysis(input(SCAM), llm, new AbortController().signal);
    expect(verdict.source).to.equal('combined');
    expect(verdict.score).to.be.at.least(0.97);
    expect(verdict.summary).to.match(/IRS/);
    expect(intel.names).to.include('Officer Brooks');
    expect(intel.callback_numbers).to.deep.equal(['+12025550147']);
  });

  it('with the embedded model, a phrase honest callers use is not a scam, and the same phrase as a demand is', async () => {
    const llm = createLocalProvider();
    const run = async (t: string) => (await finalAnalysis(input(t), llm, new AbortController().signal)).verdict;
    for (const honest of [
      'caller: Hey, it’s Sam. Can you pay me back the twenty bucks for the tickets on Venmo whenever?',
      'caller: Hi, this is Dr. Kim’s office. Before I go on, can you confirm your date of birth for me?',
      'caller: Hi, this is Sarah from Verizon support. To see the credit, you can download the app and log in yourself.',
    ]) {
      const v = await run(honest);
      expect(v.score, honest).to.be.below(0.6);
    }
    // Two such phrases together are still no scam: nothing here may be filed.
    for (const honest of [
      'caller: Hey, I got grandma an Amazon gift card for her birthday, do you want to go in on it with me?',
      'caller: Please don’t hang up, I’m transferring you to billing. They can help with the refund for the double charge.',
    ]) {
      const v = await run(honest);
      expect(v.score, honest).to.be.below(0.85);
    }
    const demand = await run('caller: Please buy Google Play gift cards and read me the numbers on the back.');
    expect(demand.score).to.be.at.least(0.6);
    const withPretext = await run(
      'caller: This is the IRS about your back taxes. Please buy Google Play gift cards and read me the numbers on the back.',
    );
    expect(withPretext.level).to.equal('scam');
  });

  it('a model failure keeps the rules verdict and reports the error', async () => {
    const errors: Error[] = [];
    const llm = scripted(async () => {
      throw new ProviderError('scripted', 'model refused: quota exceeded');
    });
    const { verdict } = await finalAnalysis(input(SCAM), llm, new AbortController().signal, (e) => errors.push(e));
    expect(verdict.source).to.equal('heuristic');
    expect(verdict.level).to.equal('scam');
    expect(errors.map((e) => e.message)).to.deep.equal(['model refused: quota exceeded']);
  });

  it('an abort (the caller’s time bound) falls back to the rules even when the model ignores its signal', async () => {
    const errors: Error[] = [];
    const llm = scripted(() => new Promise<Analysis>(() => undefined)); // never answers
    const ctrl = new AbortController();
    const pending = finalAnalysis(input(SCAM), llm, ctrl.signal, (e) => errors.push(e));
    ctrl.abort(new Error('final analysis took longer than 20 s'));
    const { verdict } = await pending;
    expect(verdict.source).to.equal('heuristic');
    expect(errors[0]!.message).to.equal('final analysis took longer than 20 s');
  });

  it('a signal aborted before the analysis asks no model and keeps the rules verdict', async () => {
    let asked = false;
    const llm = scripted(async (_i, s) => {
      asked = true;
      throw s.reason; // what a provider does on an aborted signal: nobody would be listening
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const ctrl = new AbortController();
      ctrl.abort(new Error('client went away'));
      const errors: Error[] = [];
      const { verdict } = await finalAnalysis(input(SCAM), llm, ctrl.signal, (e) => errors.push(e));
      await new Promise((r) => setImmediate(r));
      expect(asked).to.equal(false);
      expect(verdict.level).to.equal('scam');
      expect(errors.map((e) => e.message)).to.deep.equal(['client went away']);
      expect(unhandled).to.deep.equal([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('an empty caller text asks no model and is clean', async () => {
    let asked = false;
    const llm = scripted(async () => {
      asked = true;
      throw new Error('unexpected');
    });
    const { verdict } = await finalAnalysis(input('callee: hello?'), llm, new AbortController().signal);
    expect(asked).to.equal(false);
    expect(verdict.level).to.equal('clean');
    expect(verdict.category).to.equal('none');
  });
});

describe('pipelines/filing', () => {
  let dir: string;
  let store: Store;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-filing-'));
    store = createEmbeddedStore(path.join(dir, 'voice.db'));
  });
  after(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const verdict = toVerdict(
    {
      score: 0.93,
      category: 'Tax Collection',
      tactics: ['threat'],
      signals: ['threat: "warrant"'],
      summary: 'IRS imposter.',
    },
    'combined',
  );
  const base = {
    keyId: 'k1',
    product: 'scan' as const,
    report: true,
    verdict,
    from: '+15125550601',
    intel: { callback_numbers: ['+12025550147'], gift_card_brands: ['Google Play'] },
    now: '2026-02-01T12:00:00.000Z',
  };

  it('files one complaint per number with the category as subject and summary plus intel as comment', async () => {
    const r = await fileComplaints(store, { ...base, sessionId: 's1' });
    expect(r).to.deep.equal({ reported: true, reported_numbers: 2 });
    const st = await store.complaints.status('+12025550147');
    expect(st).to.include({ reported: true, complaints: 1 });
    expect(st.categories).to.deep.equal(['Tax Collection']);
    expect((await store.complaints.status('+15125550601')).complaints).to.equal(1);
  });

  it('replaying the same session files nothing twice', async () => {
    await fileComplaints(store, { ...base, sessionId: 's1' });
    expect((await store.complaints.status('+12025550147')).complaints).to.equal(1);
  });

  it('files nothing when a condition fails', async () => {
    const none = { reported: false, reported_numbers: 0 };
    expect(
      await fileComplaints(store, { ...base, sessionId: 's2', report: false, from: '+15125550602' }),
    ).to.deep.equal(none);
    expect(
      await fileComplaints(store, {
        ...base,
        sessionId: 's3',
        from: '+15125550603',
        verdict: { ...verdict, score: 0.84 },
      }),
    ).to.deep.equal(none);
    expect(
      await fileComplaints(store, {
        ...base,
        sessionId: 's4',
        from: '+15125550604',
        verdict: { ...verdict, category: 'Surveys' },
      }),
    ).to.deep.equal(none);
    expect(await fileComplaints(store, { ...base, sessionId: 's5', from: undefined, intel: {} })).to.deep.equal(none);
    for (const n of ['+15125550602', '+15125550603', '+15125550604']) {
      expect((await store.complaints.status(n)).reported).to.equal(false);
    }
  });
});
