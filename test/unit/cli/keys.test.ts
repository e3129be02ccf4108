import { expect } from 'chai';
import { expiryOf } from '../../../src/cli/keys.js';

describe('voice keys: --expires', () => {
  const now = Date.parse('2026-11-24T10:00:00.000Z');

  it('takes a span from now or an ISO date in the future', () => {
    expect(expiryOf('30d', now)).to.equal('2026-12-24T10:00:00.000Z');
    expect(expiryOf('12h', now)).to.equal('2026-11-24T22:00:00.000Z');
    expect(expiryOf('90m', now)).to.equal('2026-11-24T11:30:00.000Z');
    expect(expiryOf('2027-01-01', now)).to.equal('2027-01-01T00:00:00.000Z');
    expect(expiryOf('2027-01-01T08:30:00+02:00', now)).to.equal('2027-01-01T06:30:00.000Z');
  });

  it('refuses anything else, and the past, naming the option', () => {
    for (const bad of ['soon', '30', '30w', '-1d', '2027-13-45', 'tomorrow'])
      expect(() => expiryOf(bad, now), bad).to.throw(/^--expires must be an ISO date or a span/);
    expect(() => expiryOf('2026-01-01', now)).to.throw(/^--expires must be in the future/);
    expect(() => expiryOf('0d', now)).to.throw(/^--expires must be in the future/);
  });
});
