import { expect } from 'chai';
import { requestId } from '../../../src/server/http/request-id.js';

describe('server/http/request-id', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  it('keeps a well-formed id: 1 to 128 letters, digits and - _ . : / + = @', () => {
    for (const id of [
      'x',
      'f47ac10b-58cc-4372-a567-0e02b2c3d479',
      'Root=1-5e1b4151-5ac6c58f',
      'YWJj+/==',
      'a@b:c_d.e',
      'z'.repeat(128),
    ])
      expect(requestId(id)).to.equal(id);
  });

  it('replaces a missing, empty, over-long or ill-charactered id with a fresh UUID', () => {
    for (const bad of [
      undefined,
      '',
      'z'.repeat(129),
      'a b',
      'a\tb',
      'a"b',
      'a,b',
      'a;b',
      'a\\nb',
      '<script>',
      'ñ',
      'a\u0000b',
    ])
      expect(requestId(bad), JSON.stringify(bad)).to.match(UUID);
    expect(requestId(undefined)).to.not.equal(requestId(undefined));
  });
});
