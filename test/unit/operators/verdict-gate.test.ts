import { expect } from 'chai';
import { map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { VerdictCategory } from '../../../src/domain/categories.js';
import type { Assessment } from '../../../src/domain/verdict.js';
import { verdictGate, type ScoreUpdate } from '../../../operators/verdict-gate.js';

const rules = (score: number, category: VerdictCategory = 'Tax Collection'): ScoreUpdate => ({
  from: 'rules',
  assessment: { score, category, tactics: [], signals: [] } satisfies Assessment,
});
const model = (score: number, category: VerdictCategory = 'Tax Collection'): ScoreUpdate => ({
  from: 'model',
  assessment: { score, category, tactics: [], signals: [], summary: 'The caller claims to be the IRS.' },
});

/** Runs the gate over a marble of updates and returns the marble of sent scores (levels/categories checked separately). */
function gate(
  marble: string,
  values: Record<string, ScoreUpdate>,
  expected: string,
  out: Record<string, [number, string, string]>,
) {
  const ts = new TestScheduler((a, b) => {
    expect(a).to.deep.equal(b);
  });
  ts.run(({ cold, expectObservable }) => {
    const sent$ = cold(marble, values).pipe(verdictGate());
    const mapped = Object.fromEntries(
      Object.entries(out).map(([k, [score, level, category]]) => [k, { score, level, category }]),
    );
    expectObservable(sent$.pipe(map((v) => ({ score: v.score, level: v.level, category: v.category })))).toBe(
      expected,
      mapped,
    );
  });
}

describe('verdictGate operator', () => {
  it('rule 1: the first verdict is sent only once the score reaches 0.3 (here from the model)', () => {
    gate('-a-b-|', { a: model(0.2), b: model(0.3) }, '---x-|', { x: [0.3, 'suspicious', 'Tax Collection'] });
  });

  it('rule 2: a level change is sent even when the score moves less than 0.15', () => {
    gate('-a-b-|', { a: model(0.55), b: model(0.62) }, '-x-y-|', {
      x: [0.55, 'suspicious', 'Tax Collection'],
      y: [0.62, 'likely_scam', 'Tax Collection'],
    });
  });

  it('rule 3: a category change is sent at the same score', () => {
    gate('-a-b-|', { a: model(0.7), b: model(0.7, 'Computer & Technical Support') }, '-x-y-|', {
      x: [0.7, 'likely_scam', 'Tax Collection'],
      y: [0.7, 'likely_scam', 'Computer & Technical Support'],
    });
  });

  it('rule 4: a move of 0.15 or more is sent; smaller moves within a level are not', () => {
    gate('-a-b-c-|', { a: model(0.3), b: model(0.44), c: model(0.45) }, '-x---y-|', {
      x: [0.3, 'suspicious', 'Tax Collection'],
      y: [0.45, 'suspicious', 'Tax Collection'],
    });
  });

  it('a rules-only score below 0.5 is never sent, even past 0.3', () => {
    gate('-a-b-c-|', { a: rules(0.35), b: rules(0.49), c: rules(0.5) }, '-----x-|', {
      x: [0.5, 'suspicious', 'Tax Collection'],
    });
  });

  it('a rules-only score never lowers a score the model produced', () => {
    // The model says 0.9; later weaker rule evidence must not pull the verdict down (no event either).
    gate('-a-b-|', { a: model(0.9), b: rules(0.4) }, '-x---|', { x: [0.9, 'scam', 'Tax Collection'] });
  });

  it('strong rules stand over a model that says clean (combined)', () => {
    gate('-a-b-|', { a: model(0.2), b: rules(0.9) }, '---y-|', {
      y: [0.9, 'scam', 'Tax Collection'],
    });
  });

  it('strong rules stand over a model that flagged the call (combined)', () => {
    gate('-a-b-|', { a: model(0.4), b: rules(0.9) }, '-x-y-|', {
      x: [0.4, 'suspicious', 'Tax Collection'],
      y: [0.9, 'scam', 'Tax Collection'],
    });
  });

  it('sends nothing on a clean call', () => {
    gate('-a-b-c-|', { a: rules(0.1, 'none'), b: model(0.05, 'none'), c: rules(0.2, 'none') }, '-------|', {});
  });

  it('sends the model verdict falling back to clean as a level change', () => {
    gate('-a-b-|', { a: model(0.7), b: model(0.1, 'none') }, '-x-y-|', {
      x: [0.7, 'likely_scam', 'Tax Collection'],
      y: [0.1, 'clean', 'none'],
    });
  });
});

describe('verdictGate: subscription', () => {
  it('lets go of the score updates when they complete, or when unsubscribed', () => {
    new TestScheduler((a, b) => {
      expect(a).to.deep.equal(b);
    }).run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const done$ = cold('a-b|', { a: model(0.1, 'none'), b: model(0.2, 'none') });
      expectObservable(done$.pipe(verdictGate())).toBe('---|');
      expectSubscriptions(done$.subscriptions).toBe('^--!');
      const live$ = hot('-a-a-a', { a: model(0.9) });
      expectObservable(
        live$.pipe(
          verdictGate(),
          map((v) => v.score),
        ),
        '^--!',
      ).toBe('-x-', { x: 0.9 });
      expectSubscriptions(live$.subscriptions).toBe('^--!');
    });
  });
});
