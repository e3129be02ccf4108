/*
 * Who is calling, from the INVITE: P-Asserted-Identity (RFC 3325; set by the caller's trusted network)
 * first, then From. The user part of a sip:/sips: URI or the number of a tel: URI is normalised to
 * E.164; anything that is not a possible phone number (anonymous, names) gives no number.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { parseAOR, parseUri } from 'sip';
import { isE164 } from '../../domain/phone.js';
import type { SipRequest } from './message.js';

/** The URI inside a name-addr or addr-spec header value (`"Bob" <sip:+1202@x>;tag=1` → `sip:+1202@x`). */
export function headerUri(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return parseAOR({ s: value, i: 0 }).uri.trim() || undefined;
  } catch {
    return undefined;
  }
}

/** E.164 form of a dialled-number string, or undefined. */
export function toE164(raw: string): string | undefined {
  let s = decodeURIComponent(raw).replace(/[\s().-]/g, '');
  if (s.startsWith('00')) s = `+${s.slice(2)}`;
  // Numbers carried without the plus are international when long enough to hold a country code.
  if (/^[1-9]\d{10,14}$/.test(s)) s = `+${s}`;
  if (!s.startsWith('+')) return undefined;
  const parsed = parsePhoneNumberFromString(s);
  if (!parsed || !parsed.isPossible()) return undefined;
  return isE164(parsed.number) ? parsed.number : undefined;
}

/** The number of a sip:, sips: or tel: URI. */
export function numberOfUri(uri: string | undefined): string | undefined {
  if (!uri) return undefined;
  const tel = /^tel:([^;]+)/i.exec(uri);
  if (tel) return toE164(tel[1]!);
  const user = parseUri(uri)?.user;
  return user ? toE164(user.split(';')[0]!) : undefined;
}

/** The caller's E.164 number: P-Asserted-Identity (each of its URIs), then From. */
export function callerNumber(req: SipRequest): string | undefined {
  for (const pai of req.headers.all('p-asserted-identity')) {
    for (const part of pai.split(/,(?=\s*(?:"|<|sips?:|tel:))/)) {
      const n = numberOfUri(headerUri(part));
      if (n) return n;
    }
  }
  return numberOfUri(headerUri(req.headers.get('from')));
}

/** The called number (To), when it is one. */
export function calledNumber(req: SipRequest): string | undefined {
  return numberOfUri(headerUri(req.headers.get('to')));
}
