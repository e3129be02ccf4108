import { expect } from 'chai';
import { TestScheduler } from 'rxjs/testing';
import type { Frame, Utterance } from '../../../src/domain/frames.js';
import { collectDtmf } from '../../../operators/dtmf.js';
import { ruleScore } from '../../../operators/rule-score.js';
import { textUtterances } from '../../../operators/utterances.js';
import { createRuleScorer } from '../../../src/rules/index.js';

const scheduler = () =>
  new TestScheduler((a, b) => {
    expect(a).to.deep.equal(b);
  });
const t = (text: string, extra: Partial<Extract<Frame, { kind: 'text' }>> = {}): Frame => ({
  kind: 'text',
  track: 'inbound',
  text,
  final: true,
  endOfTurn: false,
  ...extra,
});

describe('textUtterances operator', () => {
  it('keeps final non-empty lines, labels outbound as callee, drops interim results and non-text frames', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      const frames$ = cold<Frame>('a-b-c-d-e-f|', {
        a: t('Hello there'),
        b: t('interim words', { final: false }),
        c: t('   '),
        d: t('Who is this?', { track: 'outbound', endOfTurn: true }),
        e: { kind: 'dtmf', digit: '5' },
        f: { kind: 'audio', track: 'inbound', data: new Uint8Array(4) },
      });
      expectObservable(frames$.pipe(textUtterances(ts))).toBe('a-----d----|', {
        a: { role: 'caller', speaker: 'caller', text: 'Hello there', at: 0 },
        d: { role: 'callee', speaker: 'callee', text: 'Who is this?', at: 6 },
      });
    });
  });
});

describe('collectDtmf operator', () => {
  it('collects digits in order', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const frames$ = cold<Frame>('a-x-b-c|', {
        a: { kind: 'dtmf', digit: '1' },
        x: t('press one'),
        b: { kind: 'dtmf', digit: '*' },
        c: { kind: 'dtmf', digit: '9' },
      });
      expectObservable(frames$.pipe(collectDtmf())).toBe('a---b-c|', { a: '1', b: '1*', c: '1*9' });
    });
  });
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
