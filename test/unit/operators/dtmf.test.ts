import { expect } from 'chai';
import { TestScheduler } from 'rxjs/testing';
import type { Frame } from '../../../src/domain/frames.js';
import { collectDtmf } from '../../../operators/dtmf.js';

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

describe('collectDtmf: subscription', () => {
  it('lets go of the frames when they complete, or when unsubscribed', () => {
    scheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const frames$ = cold<Frame>('a-b|', { a: { kind: 'dtmf', digit: '1' }, b: { kind: 'dtmf', digit: '2' } });
      expectObservable(frames$.pipe(collectDtmf())).toBe('a-b|', { a: '1', b: '12' });
      expectSubscriptions(frames$.subscriptions).toBe('^--!');
      const live$ = hot<Frame>('a-a-a-a', { a: { kind: 'dtmf', digit: '#' } });
      expectObservable(live$.pipe(collectDtmf()), '^--!').toBe('a-b', { a: '#', b: '##' });
      expectSubscriptions(live$.subscriptions).toBe('^--!');
    });
  });
});
