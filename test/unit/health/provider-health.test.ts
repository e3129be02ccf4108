import { expect } from 'chai';
import { DOWN_AFTER_FAILURES, DOWN_FOR_MS, ProviderHealth } from '../../../src/health/provider-health.js';

describe('health/provider-health', () => {
  it('marks a provider down after three failures in a row, and up at its next success', () => {
    const h = new ProviderHealth();
    for (let i = 1; i < DOWN_AFTER_FAILURES; i++) h.record('openai:m', false, i);
    expect(h.down('openai:m', 10)).to.equal(undefined);
    h.record('openai:m', false, 20);
    expect(h.down('openai:m', 21)).to.equal('3 calls failed in a row');
    expect(h.down('whisper', 21), 'other providers are untouched').to.equal(undefined);
    h.record('openai:m', true, 30);
    expect(h.down('openai:m', 31)).to.equal(undefined);
  });

  it('a success in between starts the count again', () => {
    const h = new ProviderHealth();
    h.record('p', false, 1);
    h.record('p', false, 2);
    h.record('p', true, 3);
    h.record('p', false, 4);
    h.record('p', false, 5);
    expect(h.down('p', 6)).to.equal(undefined);
  });

  it('lets a down mark lapse when no call has failed for 30 s (a node out of rotation gets no calls)', () => {
    const h = new ProviderHealth();
    for (let i = 0; i < DOWN_AFTER_FAILURES; i++) h.record('p', false, 1000);
    expect(h.down('p', 1000 + DOWN_FOR_MS)).to.not.equal(undefined);
    expect(h.down('p', 1001 + DOWN_FOR_MS)).to.equal(undefined);
  });
});
