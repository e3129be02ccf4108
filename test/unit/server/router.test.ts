import { expect } from 'chai';
import { Router } from '../../../src/server/http/router.js';
import { ok, type Route } from '../../../src/server/types.js';

function route(method: Route['method'], path: string): Route {
  return { method, path, auth: 'none', handle: async () => ok({ path }) };
}

describe('server/router', () => {
  const router = new Router([
    route('GET', '/voice/sessions/:id'),
    route('GET', '/voice/sessions'),
    route('GET', '/voice/sessions/recent'),
    route('PUT', '/domains/:id'),
  ]);

  it('matches literal paths and captures parameters', () => {
    const m = router.match('GET', '/voice/sessions/abc-123');
    expect(m.kind).to.equal('found');
    if (m.kind !== 'found') return;
    expect(m.route.path).to.equal('/voice/sessions/:id');
    expect(m.params).to.deep.equal({ id: 'abc-123' });
  });

  it('prefers a literal segment over a capture wherever it is listed', () => {
    const m = router.match('GET', '/voice/sessions/recent');
    expect(m.kind === 'found' && m.route.path).to.equal('/voice/sessions/recent');
  });

  it('decodes percent-encoded parameters and refuses malformed ones', () => {
    const m = router.match('PUT', '/domains/a%20b');
    expect(m.kind === 'found' && m.params.id).to.equal('a b');
    expect(router.match('PUT', '/domains/%E0%A4%A').kind).to.equal('none');
  });

  it('tolerates a trailing slash', () => {
    expect(router.match('GET', '/voice/sessions/').kind).to.equal('found');
  });

  it('reports the allowed methods when only the method is wrong', () => {
    expect(router.match('DELETE', '/domains/x')).to.deep.equal({ kind: 'method', allowed: ['PUT'] });
  });

  it('reports no match for unknown paths', () => {
    expect(router.match('GET', '/voice/nope').kind).to.equal('none');
    expect(router.match('GET', '/voice/sessions/a/b').kind).to.equal('none');
  });

  it('refuses duplicate routes at construction', () => {
    expect(() => new Router([route('GET', '/a'), route('GET', '/a')])).to.throw(/duplicate route GET \/a/);
  });
});
