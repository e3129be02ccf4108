import { createHmac, createPublicKey, timingSafeEqual, verify, type KeyObject } from 'node:crypto';

/**
 * Verifies that a keyless socket upgrade really comes from a telephony vendor account this node serves,
 * from the signature the vendor puts on the upgrade. Pure: the secrets come from configuration, the
 * clock from the caller.
 *
 * Vendor A signs every request it makes, the media socket's upgrade included: `X-Twilio-Signature` is the
 * base64 HMAC-SHA1, keyed with the account's auth token, of the full URL it requested followed by its POST
 * parameters sorted by name (none on an upgrade). For a stream that URL is the `wss://` one exactly as the
 * XML named it; rebuilt with `https://` it no longer matches.
 *
 * Vendor B signs with ed25519: `telnyx-signature-ed25519` is the base64 signature, by the account's key
 * pair, of `<telnyx-timestamp>|<raw body>` (the body is empty on an upgrade), checked with the account's
 * public key; a timestamp more than five minutes off is refused, so a captured upgrade cannot be replayed.
 */
export interface VendorSecrets {
  /** Vendor A auth tokens (one per account, or old and new while one is rotated). */
  vendorAAuthTokens?: readonly string[];
  /** Vendor B ed25519 public keys, base64 of the raw 32 bytes as the vendor's portal shows them. */
  vendorBPublicKeys?: readonly string[];
}

export type SignedVendor = 'vendor_a' | 'vendor_b';

export const VENDOR_A_SIGNATURE = 'x-twilio-signature';
export const VENDOR_B_SIGNATURE = 'telnyx-signature-ed25519';
export const VENDOR_B_TIMESTAMP = 'telnyx-timestamp';
export const VENDOR_B_TOLERANCE_S = 300;

/** DER prefix of an ed25519 SubjectPublicKeyInfo: the raw 32-byte key follows it. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** A raw base64 ed25519 public key as a KeyObject, or null when it is not one (config validation). */
export function ed25519PublicKey(base64: string): KeyObject | null {
  const raw = Buffer.from(base64.trim(), 'base64');
  if (raw.length !== 32 || raw.toString('base64') !== base64.trim()) return null;
  try {
    return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  } catch {
    return null;
  }
}

export interface UpgradeRequest {
  /** Lower-cased header names. */
  headers: Readonly<Record<string, string>>;
  /** Path and query as requested (`/voice/filter/stream`, `?a=b` when there is one). */
  path: string;
  query: string;
  /** VOICE_PUBLIC_URL, when set: the base the XML entry points put in the stream URLs. */
  publicUrl?: string;
}

/**
 * Which vendor signed this upgrade, or null when no configured secret verifies it. A signature header
 * alone proves nothing: anyone can send one.
 */
export function verifiedVendor(req: UpgradeRequest, secrets: VendorSecrets, nowMs: number): SignedVendor | null {
  const a = req.headers[VENDOR_A_SIGNATURE]?.trim();
  if (a && secrets.vendorAAuthTokens?.length && vendorAVerifies(a, req, secrets.vendorAAuthTokens)) return 'vendor_a';
  const b = req.headers[VENDOR_B_SIGNATURE]?.trim();
  const ts = req.headers[VENDOR_B_TIMESTAMP]?.trim();
  if (b && ts && secrets.vendorBPublicKeys?.length && vendorBVerifies(b, ts, secrets.vendorBPublicKeys, nowMs)) {
    return 'vendor_b';
  }
  return null;
}

/**
 * The URLs the vendor may have signed: the stream URL the XML entry points build (VOICE_PUBLIC_URL, else
 * this request's Host, `wss` behind a proxy that says it terminated TLS), also as `wss` (the vendor
 * streams only to `wss`, through a proxy that may not say so), each with and without the default port.
 */
export function signedUrlCandidates(req: UpgradeRequest): string[] {
  const tail = `${req.path}${req.query ? `?${req.query}` : ''}`;
  const roots = new Set<string>();
  if (req.publicUrl) roots.add(req.publicUrl.replace(/\/+$/, '').replace(/^http(s?):/, 'ws$1:'));
  else {
    const host = req.headers.host?.trim();
    if (host) {
      const proto = req.headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase();
      roots.add(`${proto === 'https' ? 'wss' : 'ws'}://${host}`);
      roots.add(`wss://${host}`);
    }
  }
  const out = new Set<string>();
  for (const root of roots) {
    out.add(root + tail);
    // Written out, not through URL, which drops a default port the vendor may have signed.
    const m = /^(wss?):\/\/(\[[^\]]+\]|[^/:]+)(?::(\d+))?/.exec(root);
    if (!m) continue;
    const dflt = m[1] === 'wss' ? '443' : '80';
    if (m[3] === undefined) out.add(`${m[1]}://${m[2]}:${dflt}${tail}`);
    else if (m[3] === dflt) out.add(`${m[1]}://${m[2]}${tail}`);
  }
  return [...out];
}

/** Vendor A's request signature of a URL with no POST parameters. */
export function vendorASignature(authToken: string, url: string): string {
  return createHmac('sha1', authToken).update(url, 'utf8').digest('base64');
}

function vendorAVerifies(presented: string, req: UpgradeRequest, tokens: readonly string[]): boolean {
  const given = Buffer.from(presented, 'utf8');
  for (const url of signedUrlCandidates(req)) {
    for (const token of tokens) {
      const want = Buffer.from(vendorASignature(token, url), 'utf8');
      if (want.length === given.length && timingSafeEqual(want, given)) return true;
    }
  }
  return false;
}

function vendorBVerifies(signature: string, timestamp: string, keys: readonly string[], nowMs: number): boolean {
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > VENDOR_B_TOLERANCE_S) return false;
  const sig = Buffer.from(signature, 'base64');
  if (sig.length !== 64) return false;
  const message = Buffer.from(`${timestamp}|`, 'utf8');
  for (const k of keys) {
    const key = ed25519PublicKey(k);
    if (key && verify(null, message, key, sig)) return true;
  }
  return false;
}
