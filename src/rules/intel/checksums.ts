import { createHash } from 'node:crypto';

/** Luhn check used by every payment card number. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** ABA routing number checksum: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function abaValid(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false;
  const d = [...digits].map(Number) as number[];
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  // The first two digits are a Federal Reserve routing symbol: 00–12, 21–32, 61–72, 80.
  const prefix = d[0]! * 10 + d[1]!;
  const prefixOk = prefix <= 12 || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72) || prefix === 80;
  return sum % 10 === 0 && prefixOk && digits !== '000000000';
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58Decode(s: string): Buffer | null {
  let n = 0n;
  for (const ch of s) {
    const v = BASE58.indexOf(ch);
    if (v < 0) return null;
    n = n * 58n + BigInt(v);
  }
  let hex = n.toString(16);
  if (hex.length % 2) hex = '0' + hex;
  const body = n === 0n ? Buffer.alloc(0) : Buffer.from(hex, 'hex');
  let zeros = 0;
  while (zeros < s.length && s[zeros] === '1') zeros++;
  return Buffer.concat([Buffer.alloc(zeros), body]);
}

/** Base58Check (Bitcoin P2PKH `1…` and P2SH `3…`): version byte 0x00 or 0x05 and a double-SHA-256 checksum. */
export function base58CheckBitcoin(addr: string): boolean {
  if (!/^[13][1-9A-HJ-NP-Za-km-z]{25,34}$/.test(addr)) return false;
  const raw = base58Decode(addr);
  if (!raw || raw.length !== 25) return false;
  const payload = raw.subarray(0, 21);
  const check = createHash('sha256').update(createHash('sha256').update(payload).digest()).digest();
  if (!check.subarray(0, 4).equals(raw.subarray(21))) return false;
  return raw[0] === 0x00 || raw[0] === 0x05;
}

const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

function bech32Polymod(values: number[]): number {
  const GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GEN[i]!;
  }
  return chk >>> 0;
}

/** Bech32 / Bech32m checksum of a Bitcoin `bc1…` address (BIP 173 / BIP 350). */
export function bech32Bitcoin(addr: string): boolean {
  if (addr !== addr.toLowerCase() && addr !== addr.toUpperCase()) return false;
  const a = addr.toLowerCase();
  if (!/^bc1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{11,87}$/.test(a)) return false;
  const hrp = 'bc';
  const data = [...a.slice(3)].map((c) => BECH32_CHARSET.indexOf(c));
  const expanded = [...[...hrp].map((c) => c.charCodeAt(0) >> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31)];
  const pm = bech32Polymod([...expanded, ...data]);
  return pm === 1 || pm === 0x2bc830a3;
}

/**
 * Ethereum: 0x + 40 hex digits. EIP-55 mixed-case checksums need Keccak-256, which Node's crypto does
 * not offer, so any case is accepted; all-lower or all-upper forms carry no checksum anyway.
 */
export function ethereumAddress(addr: string): boolean {
  return /^0x[0-9a-fA-F]{40}$/.test(addr) && !/^0x0{40}$/.test(addr);
}
