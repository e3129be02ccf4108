import { expect } from 'chai';
import { uuidv7 } from '../../../src/util/uuid7.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('util/uuid7', () => {
  it('is an RFC 9562 version 7 UUID carrying the time in milliseconds', () => {
    const t = Date.UTC(2026, 10, 22, 12, 0, 0, 123);
    const id = uuidv7(t);
    expect(id).to.match(V7);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).to.equal(t);
  });

  it('sorts later ids after earlier ones, and never repeats', () => {
    const ids = Array.from({ length: 5000 }, (_, i) => uuidv7(1_700_000_000_000 + Math.floor(i / 10)));
    expect(new Set(ids).size).to.equal(ids.length);
    for (let i = 10; i < ids.length; i += 10) expect(ids[i - 1]! < ids[i]!, ids[i]).to.equal(true);
    for (const id of ids) expect(id).to.match(V7);
  });

  it('defaults to the clock', () => {
    const before = Date.now();
    const id = uuidv7();
    const t = parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
    expect(t).to.be.within(before, Date.now());
  });
});
