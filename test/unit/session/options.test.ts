import { expect } from 'chai';
import { mergeOptions, urlOptions } from '../../../src/session/options.js';

describe('session options (URL options merged with start params)', () => {
  it('uses the spec defaults: filter report=false, honeypot report=true, inbound track only', () => {
    expect(mergeOptions('filter', {}, {})).to.deep.equal({ report: false, tracksBoth: false });
    expect(mergeOptions('honeypot', {}, {})).to.deep.equal({ report: true, tracksBoth: false });
  });

  it('lets a params value win over the same URL option', () => {
    const o = mergeOptions(
      'filter',
      { webhook: 'https://a.example/h', report: 'false', language: 'en-US' },
      { webhook: 'https://b.example/h', report: 'true' },
    );
    expect(o).to.deep.equal({ report: true, tracksBoth: false, webhook: 'https://b.example/h', language: 'en-US' });
  });

  it('reads tracks=both on the filter only, and persona on the honeypot only', () => {
    expect(mergeOptions('filter', { tracks: 'both', persona: 'p1' }, {})).to.deep.equal({
      report: false,
      tracksBoth: true,
    });
    expect(mergeOptions('honeypot', { tracks: 'both' }, { persona: 'p1' })).to.deep.equal({
      report: true,
      tracksBoth: false,
      persona: 'p1',
    });
  });

  it('falls back to defaults on unusable values instead of refusing the call', () => {
    expect(mergeOptions('filter', { report: 'yes', tracks: 'all', language: 'not a tag!' }, {})).to.deep.equal({
      report: false,
      tracksBoth: false,
    });
  });

  it('takes only option keys from a query string (never the key)', () => {
    const q = new URLSearchParams('key=secret&webhook=https%3A%2F%2Fh.example&report=true&other=1');
    expect(urlOptions(q)).to.deep.equal({ webhook: 'https://h.example', report: 'true' });
  });
});
