import { expect } from 'chai';
import { TestScheduler } from 'rxjs/testing';
import type { Utterance } from '../../../src/domain/frames.js';
import { ruleScore } from '../../../operators/rule-score.js';
import { createRuleScorer } from '../../../src/rules/index.js';

const scheduler = () =>
  new TestScheduler((a, b) => {
    expect(a).to.deep.equal(b);
  });

describe('ruleScore operator', () => {
  it('scores only the caller: callee lines never reach the rule engine', () => {
    const ts = scheduler();
    const scam = 'There is a warrant for your arrest, buy gift cards now and do not tell anyone.';
    ts.run(({ cold, expectObservable }) => {
      const u = (role: Utterance['role'], text: string): Utterance => ({ role, speaker: role, text, at: 0 });
      const out$ = cold('a-b|', { a: u('callee', scam), b: u('caller', 'Hello, how are you today?') }).pipe(
        ruleScore(createRuleScorer()),
      );
      // One assessment (for the caller's line), and a clean one: the callee's scam words were not counted.
      expectObservable(out$).toBe('--b|', { b: createRuleScorer().push('Hello, how are you today?') });
    });
  });
});

describe('ruleScore: subscription', () => {
  it('lets go of the utterances when they complete, or when unsubscribed', () => {
    scheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const u: Utterance = { role: 'caller', speaker: 'caller', text: 'Hello there.', at: 0 };
      const done$ = cold('a|', { a: u });
      expectObservable(done$.pipe(ruleScore(createRuleScorer()))).toBe('a|', { a: createRuleScorer().push(u.text) });
      expectSubscriptions(done$.subscriptions).toBe('^!');
      const live$ = hot('-a-a-a', { a: u });
      expectObservable(live$.pipe(ruleScore(createRuleScorer())), '^-!').toBe('-a', {
        a: createRuleScorer().push(u.text),
      });
      expectSubscriptions(live$.subscriptions).toBe('^-!');
    });
  });
});
