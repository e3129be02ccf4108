/*
 * SDP offer/answer for the honeypot (RFC 4566 syntax, RFC 3264 §6 answer rules). The honeypot speaks
 * G.711 only: it answers the first audio stream that offers PCMU or PCMA over plain RTP, in the
 * offer's order of preference, plus RFC 4733 telephone-event under the offer's payload type.
 */

export interface SdpMedia {
  media: string;
  port: number;
  proto: string;
  formats: string[];
  /** Media-level `c=` address, if any. */
  address?: string;
  /** Its `c=` address type. */
  addressType?: 'IP4' | 'IP6';
  /** `a=` lines, without the `a=` prefix. */
  attributes: string[];
}

export interface SdpSession {
  origin: string;
  /** Session-level `c=` address, if any. */
  address?: string;
  addressType?: 'IP4' | 'IP6';
  timing: string;
  attributes: string[];
  media: SdpMedia[];
}

export type Codec = 'PCMU' | 'PCMA';

/** What the answer settled: the RTP peer and the formats both sides use. */
export interface Negotiated {
  codec: Codec;
  /** Payload type of the codec (0 or 8). */
  payloadType: number;
  /** Payload type of telephone-event, when offered. */
  dtmfPayloadType?: number;
  /** Where the offer asks for RTP. 0.0.0.0 means the offer holds the call. */
  remoteAddress: string;
  remoteAddressType: 'IP4' | 'IP6';
  remotePort: number;
  /** Index of the answered m= line. */
  mediaIndex: number;
  direction: 'sendrecv' | 'sendonly' | 'recvonly' | 'inactive';
}

export class SdpError extends Error {
  override name = 'SdpError';
}

export function parseSdp(text: string): SdpSession {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (lines[0] !== 'v=0') throw new SdpError('not SDP (no v=0)');
  const session: SdpSession = { origin: '', timing: '0 0', attributes: [], media: [] };
  let current: SdpMedia | null = null;
  for (const line of lines.slice(1)) {
    const type = line[0];
    const value = line.slice(2);
    if (line[1] !== '=') throw new SdpError(`bad SDP line: ${line.slice(0, 40)}`);
    switch (type) {
      case 'o':
        session.origin = value;
        break;
      case 't':
        if (!current) session.timing = value;
        break;
      case 'c': {
        const m = /^IN (IP[46]) (\S+)/.exec(value);
        if (!m) throw new SdpError(`bad c= line: ${value.slice(0, 40)}`);
        const target = current ?? session;
        target.addressType = m[1] as 'IP4' | 'IP6';
        target.address = m[2]!.split('/')[0]!;
        break;
      }
      case 'm': {
        const parts = value.split(/\s+/);
        if (parts.length < 4 || !/^\d+(\/\d+)?$/.test(parts[1]!))
          throw new SdpError(`bad m= line: ${value.slice(0, 40)}`);
        current = {
          media: parts[0]!,
          port: Number(parts[1]!.split('/')[0]),
          proto: parts[2]!,
          formats: parts.slice(3),
          attributes: [],
        };
        session.media.push(current);
        break;
      }
      case 'a':
        (current ? current.attributes : session.attributes).push(value);
        break;
      default:
        break;
    }
  }
  return session;
}

/** `a=rtpmap:<pt> <name>/<rate>` of a stream, by payload type. */
function rtpmaps(m: SdpMedia): Map<string, { name: string; rate: number }> {
  const out = new Map<string, { name: string; rate: number }>();
  for (const a of m.attributes) {
    const r = /^rtpmap:(\d+)\s+([^/\s]+)\/(\d+)/i.exec(a);
    if (r) out.set(r[1]!, { name: r[2]!.toLowerCase(), rate: Number(r[3]) });
  }
  return out;
}

/** The G.711 codec a format stands for (static 0/8, or a dynamic type mapped to PCMU/PCMA at 8 kHz). */
function g711Of(format: string, maps: Map<string, { name: string; rate: number }>): Codec | null {
  const map = maps.get(format);
  if (map) {
    if (map.rate !== 8000) return null;
    if (map.name === 'pcmu') return 'PCMU';
    if (map.name === 'pcma') return 'PCMA';
    return null;
  }
  if (format === '0') return 'PCMU';
  if (format === '8') return 'PCMA';
  return null;
}

function directionOf(attrs: readonly string[], session: readonly string[]): Negotiated['direction'] {
  for (const list of [attrs, session]) {
    for (const d of ['sendrecv', 'sendonly', 'recvonly', 'inactive'] as const) if (list.includes(d)) return d;
  }
  return 'sendrecv';
}

const ANSWER_DIRECTION: Readonly<Record<Negotiated['direction'], Negotiated['direction']>> = {
  sendrecv: 'sendrecv',
  sendonly: 'recvonly',
  recvonly: 'sendonly',
  inactive: 'inactive',
};

export type OfferProblem = 'no_audio' | 'srtp' | 'no_g711' | 'no_connection';

/** Why an offer cannot be answered; 488 in every case. */
export const OFFER_PROBLEMS: Readonly<Record<OfferProblem, string>> = {
  no_audio: 'no audio stream offered',
  srtp: 'SRTP is not supported (offer plain RTP/AVP)',
  no_g711: 'no G.711 (PCMU or PCMA) offered',
  no_connection: 'c= line missing for the G.711 audio stream',
};

/**
 * Picks the audio stream and formats to answer, or names why none can be. SRTP (RTP/SAVP, SAVPF, or
 * a=crypto on the audio stream) is refused even when it also offers G.711: the honeypot has no keys.
 */
export function negotiate(offer: SdpSession): Negotiated | OfferProblem {
  const audio = offer.media.map((m, i) => ({ m, i })).filter(({ m }) => m.media === 'audio' && m.port !== 0);
  if (audio.length === 0) return 'no_audio';
  let sawSrtp = false;
  let sawNoAddress = false;
  for (const { m, i } of audio) {
    if (/SAVP/i.test(m.proto) || m.attributes.some((a) => /^crypto:/i.test(a))) {
      sawSrtp = true;
      continue;
    }
    if (!/^RTP\/AVP$/i.test(m.proto)) continue;
    const maps = rtpmaps(m);
    let codec: Codec | null = null;
    let payloadType = -1;
    for (const f of m.formats) {
      codec = g711Of(f, maps);
      if (codec) {
        payloadType = Number(f);
        break;
      }
    }
    if (!codec) continue;
    const dtmf = [...maps.entries()].find(
      ([pt, v]) => v.name === 'telephone-event' && v.rate === 8000 && m.formats.includes(pt),
    );
    const address = m.address ?? offer.address;
    if (!address) {
      sawNoAddress = true;
      continue;
    }
    return {
      codec,
      payloadType,
      ...(dtmf ? { dtmfPayloadType: Number(dtmf[0]) } : {}),
      remoteAddress: address,
      remoteAddressType: (m.address ? m.addressType : offer.addressType) ?? 'IP4',
      remotePort: m.port,
      mediaIndex: i,
      direction: directionOf(m.attributes, offer.attributes),
    };
  }
  return sawNoAddress ? 'no_connection' : sawSrtp ? 'srtp' : 'no_g711';
}

export interface AnswerParams {
  /** Our address in `o=` and `c=`. */
  address: string;
  port: number;
  sessionId: string;
  version: number;
}

/**
 * The answer (RFC 3264 §6): as many m= lines as the offer, in its order; the chosen stream with the
 * codec and telephone-event, every other stream rejected with port 0 and its first format; the
 * offer's t= line; our own o= line.
 */
export function buildAnswer(offer: SdpSession, chosen: Negotiated, p: AnswerParams): string {
  const family = p.address.includes(':') ? 'IP6' : 'IP4';
  const lines = [
    'v=0',
    `o=- ${p.sessionId} ${p.version} IN ${family} ${p.address}`,
    's=-',
    `c=IN ${family} ${p.address}`,
    `t=${offer.timing}`,
  ];
  offer.media.forEach((m, i) => {
    if (i !== chosen.mediaIndex) {
      lines.push(`m=${m.media} 0 ${m.proto} ${m.formats[0] ?? '0'}`);
      return;
    }
    const formats = [String(chosen.payloadType)];
    if (chosen.dtmfPayloadType !== undefined) formats.push(String(chosen.dtmfPayloadType));
    lines.push(`m=audio ${p.port} RTP/AVP ${formats.join(' ')}`);
    lines.push(`a=rtpmap:${chosen.payloadType} ${chosen.codec}/8000`);
    if (chosen.dtmfPayloadType !== undefined) {
      lines.push(`a=rtpmap:${chosen.dtmfPayloadType} telephone-event/8000`);
      lines.push(`a=fmtp:${chosen.dtmfPayloadType} 0-15`);
    }
    lines.push('a=ptime:20');
    lines.push(`a=${ANSWER_DIRECTION[chosen.direction]}`);
  });
  return `${lines.join('\r\n')}\r\n`;
}
