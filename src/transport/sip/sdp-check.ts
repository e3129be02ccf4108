/*
 * What an SDP offer may ask of the node's media, checked before anything is answered. The offer comes
 * from whoever can reach the SIP port: a port outside 1-65535 would make the RTP socket throw, and a
 * broadcast, multicast or unspecified address would aim the persona's audio at hosts that never called.
 * Each refusal names the field, for the 488's reason phrase.
 */
import net from 'node:net';
import { negotiate, OFFER_PROBLEMS, type Negotiated, type SdpSession } from './sdp.js';

export interface MediaLimits {
  /** Address families the node's RTP sockets can send to: IPv4 only, or both (bound to `::`). */
  families: 'IP4' | 'any';
  /**
   * A re-INVITE may hold the call with `c=IN IP4 0.0.0.0` (RFC 3264 §8.4: nothing is sent); an
   * initial offer may not start a call on hold.
   */
  holdAllowed: boolean;
}

/** The negotiated stream, or the reason (naming the field) the offer is refused with 488. */
export function checkOffer(offer: SdpSession, limits: MediaLimits): Negotiated | string {
  for (const m of offer.media) {
    if (m.port > 65535) return `m= port ${shown(m.port)} is out of range (1-65535)`;
  }
  const chosen = negotiate(offer);
  if (typeof chosen === 'string') return OFFER_PROBLEMS[chosen];
  if (chosen.remotePort % 2 !== 0) return `m= port ${chosen.remotePort} is odd (RTP takes an even port)`;
  return addressProblem(chosen, limits) ?? chosen;
}

function addressProblem(chosen: Negotiated, limits: MediaLimits): string | null {
  const address = chosen.remoteAddress;
  const version = net.isIP(address);
  if (version === 0) return `c= address ${shown(address)} is not an IP address (names are not resolved)`;
  if ((version === 4 ? 'IP4' : 'IP6') !== chosen.remoteAddressType) {
    return `c= address ${shown(address)} is not of address type ${chosen.remoteAddressType}`;
  }
  if (version === 6 && limits.families === 'IP4') return 'c= IPv6 address, but this node sends RTP over IPv4 only';
  const v4 = version === 4 ? address : mappedV4(address);
  if (v4 === '0.0.0.0')
    return limits.holdAllowed ? null : 'c= address 0.0.0.0 is unspecified (a call cannot start on hold)';
  if (version === 6 && v4 === null && /^::?$|^(0+:){7}0+$/.test(address)) return 'c= address :: is unspecified';
  if (v4 === '255.255.255.255') return `c= address ${address} is broadcast`;
  if (v4 !== null) {
    const first = Number(v4.split('.')[0]);
    if (first >= 224 && first <= 239) return `c= address ${address} is multicast`;
  } else if (/^ff/i.test(address)) return `c= address ${shown(address)} is multicast`;
  return null;
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`), else null. */
function mappedV4(address: string): string | null {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? m[1]! : null;
}

/** A value fit for a SIP reason phrase: short, printable, or left out. */
function shown(value: string | number): string {
  const s = String(value);
  return /^[\w.:\-[\]]{1,64}$/.test(s) ? s : '(unprintable)';
}
