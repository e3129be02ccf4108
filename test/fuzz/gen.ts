/**
 * Deterministic input generators for the fuzz runs: one seeded PRNG per run, so a failing case is
 * reproduced by its seed and index. `FUZZ_CASES` scales every run (CI-sized by default), `FUZZ_SEED`
 * picks another sequence.
 */

export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261122) >>> 0;

/** Cases per entry point: the default, or `FUZZ_CASES` for longer runs. */
export function fuzzCases(ciDefault: number): number {
  const n = Number(process.env.FUZZ_CASES);
  return Number.isInteger(n) && n > 0 ? n : ciDefault;
}

/** mulberry32: small, fast, good enough to spread inputs; same seed, same sequence. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  bytes(n: number): Buffer {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = Math.floor(this.next() * 256);
    return b;
  }
}

/** Strings that have broken parsers, paths and queries elsewhere. */
export const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e%2f',
  '....//....//',
  "' OR '1'='1",
  '"; DROP TABLE sessions; --',
  '{"$gt": ""}',
  '$where',
  '<script>alert(1)</script>',
  '${jndi:ldap://127.0.0.1/a}',
  '%00',
  '\u0000',
  'a\u0000b',
  '\r\nX-Injected: 1',
  '%0d%0aX-Injected:%201',
  '\ud800',
  '\uffff',
  '🙂'.repeat(50),
  'A'.repeat(5000),
  '+',
  '+1',
  '+12025550123',
  '+1202555012312345678',
  '12025550123',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '0x10',
  'true',
  'null',
  '[]',
  '{}',
  'C:\\Windows\\system32',
  '/dev/zero',
  'file:///etc/passwd',
  'http://169.254.169.254/latest/meta-data/',
];

/** A value of a random JSON type (wrong types for any field). */
export function anyJson(rng: Rng, depth = 0): unknown {
  switch (rng.int(0, depth > 2 ? 5 : 7)) {
    case 0:
      return null;
    case 1:
      return rng.chance(0.5);
    case 2:
      return rng.pick([0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 8000, 48001, 7999]);
    case 3:
      return rng.pick(NASTY_STRINGS);
    case 4:
      return rng.bytes(rng.int(0, 40)).toString('latin1');
    case 5:
      return rng.int(-5, 100000);
    case 6:
      return Array.from({ length: rng.int(0, 4) }, () => anyJson(rng, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = rng.int(0, 4); i > 0; i--)
        o[rng.pick(['a', 'type', 'transcript', '__proto__', 'constructor'])] = anyJson(rng, depth + 1);
      return o;
    }
  }
}

/** A RIFF/WAVE header for `dataBytes` of audio, with the given format fields (which may lie). */
export function wavHeader(f: {
  format?: number;
  channels?: number;
  rate?: number;
  bits?: number;
  dataBytes: number;
  riffSize?: number;
}): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE((f.riffSize ?? 36 + f.dataBytes) % 2 ** 32, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(f.format ?? 1, 20);
  h.writeUInt16LE(f.channels ?? 1, 22);
  h.writeUInt32LE(f.rate ?? 8000, 24);
  h.writeUInt32LE(Math.floor((f.rate ?? 8000) * (f.channels ?? 1) * ((f.bits ?? 16) / 8)) % 2 ** 32, 28);
  h.writeUInt16LE(Math.floor((f.channels ?? 1) * ((f.bits ?? 16) / 8)) % 2 ** 16, 32);
  h.writeUInt16LE(f.bits ?? 16, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(f.dataBytes, 40);
  return h;
}

/** Byte sequences that are not valid UTF-8. */
export const INVALID_UTF8: readonly Buffer[] = [
  Buffer.from([0xc3, 0x28]),
  Buffer.from([0xa0, 0xa1]),
  Buffer.from([0xe2, 0x28, 0xa1]),
  Buffer.from([0xf0, 0x28, 0x8c, 0xbc]),
  Buffer.from([0xff, 0xfe, 0xfd]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xc0, 0xaf]),
];
