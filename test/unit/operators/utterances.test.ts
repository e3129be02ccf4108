import { expect } from 'chai';
import { TestScheduler } from 'rxjs/testing';
import type { Frame } from '../../../src/domain/frames.js';
import { textUtterances } from '../../../operators/utterances.js';

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

describe('textUtterances: subscription', () => {
  it('lets go of the frames when they complete, or when unsubscribed', () => {
    const ts = scheduler();
    ts.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const done$ = cold<Frame>('-a|', { a: t('Hi') });
      expectObservable(done$.pipe(textUtterances(ts))).toBe('-a|', {
        a: { role: 'caller', speaker: 'caller', text: 'Hi', at: 1 },
      });
      expectSubscriptions(done$.subscriptions).toBe('^-!');
      const live$ = hot<Frame>('a-a-a-a', { a: t('Hi') });
      expectObservable(live$.pipe(textUtterances(ts)), '^--!').toBe('a-b', {
        a: { role: 'caller', speaker: 'caller', text: 'Hi', at: 0 },
        b: { role: 'caller', speaker: 'caller', text: 'Hi', at: 2 },
      });
      expectSubscriptions(live$.subscriptions).toBe('^--!');
    });
  });
});
