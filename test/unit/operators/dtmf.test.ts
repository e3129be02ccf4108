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
