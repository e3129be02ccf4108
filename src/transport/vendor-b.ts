import type { SessionEvent, SessionKind } from '../domain/events.js';
import type { AudioEncoding, OutboundFrame } from '../domain/frames.js';
import { MAX_SAMPLE_RATE, MIN_SAMPLE_RATE } from '../domain/limits.js';
import { isE164 } from '../domain/phone.js';
import type { Decoded, Serializer, StartInfo, WireMessage } from './types.js';
import {
  decodeStreamEvent,
  encodeBase64,
  objectField,
  parseObject,
  stringField,
  stringMap,
  textMessage,
  type JsonObject,
} from './wire.js';

/** Vendor B codec names we can transcribe, and the session encoding each maps to. */
const CODECS: Readonly<Record<string, AudioEncoding>> = { PCMU: 'mulaw', PCMA: 'alaw', L16: 'pcm16' };

/** Does this start event have vendor B's shape (snake_case ids)? */
export function looksLikeVendorBStart(msg: JsonObject): boolean {
  const start = objectField(msg, 'start');
  return typeof msg.stream_id === 'string' || typeof start.call_control_id === 'string' || 'media_format' in start;
}

export function parseVendorBStart(msg: JsonObject): { info: StartInfo } | { reason: string } {
  const start = objectField(msg, 'start');
  const format = objectField(start, 'media_format');
  const codec = stringField(format, 'encoding') ?? 'PCMU';
  const encoding = CODECS[codec.toUpperCase()];
  if (!encoding) {
    return { reason: `start.media_format.encoding ${codec} is not supported (use PCMU or PCMA)` };
  }
  let sampleRate = 8000;
  if (format.sample_rate !== undefined) {
    const r = Number(format.sample_rate);
    if (!Number.isInteger(r) || r < MIN_SAMPLE_RATE || r > MAX_SAMPLE_RATE) {
      return {
        reason: `start.media_format.sample_rate must be an integer from ${MIN_SAMPLE_RATE} to ${MAX_SAMPLE_RATE}`,
      };
    }
    sampleRate = r;
  }
  if (format.channels !== undefined && Number(format.channels) !== 1) {
    return { reason: 'start.media_format.channels must be 1' };
  }

  const params = stringMap(start.custom_parameters);
  const { from: paramFrom, to: paramTo, ...options } = params;
  const info: StartInfo = { audio: { encoding, sampleRate }, params: options };
  // The vendor's own numbers first; a parameter only fills in what it left out. SIP URIs and
  // withheld callers are "unknown", not a reason to refuse the call.
  // An E.164 number wins; else the first one given, as given (a SIP URI, "anonymous").
  const pick = (...c: Array<string | undefined>) => c.find(isE164) ?? c.find((v) => v?.trim());
  const from = pick(stringField(start, 'from'), paramFrom);
  const to = pick(stringField(start, 'to'), paramTo);
  if (from) info.from = from;
  if (to) info.to = to;
  const callId = stringField(start, 'call_control_id');
  if (callId) info.callId = callId;
  const streamId = stringField(msg, 'stream_id');
  if (streamId) info.streamId = streamId;
  return { info };
}

/** L16 on the wire is big-endian (network order); the session's pcm16 is little-endian. */
function swap16(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.byteLength - (data.byteLength % 2));
  for (let i = 0; i + 1 < data.byteLength; i += 2) {
    out[i] = data[i + 1]!;
    out[i + 1] = data[i]!;
  }
  return out;
}

/**
 * Vendor B media streams. The vendor's docs do not say what it does with messages it does not
 * know, so this serializer is as strict as vendor A's: no events on any socket (they go to the
 * webhook), and on the honeypot only media, mark and clear in the stream's own codec.
 */
export class VendorBSerializer implements Serializer {
  readonly protocol = 'vendor_b' as const;
  private started = false;
  private bigEndian = false;
  invalidFrames = 0;

  constructor(private readonly product: SessionKind) {}

  decodeText(text: string): Decoded {
    const msg = parseObject(text);
    if (!msg) return { type: 'ignore' };
    switch (msg.event) {
      case 'start': {
        if (this.started) return { type: 'ignore' };
        const parsed = parseVendorBStart(msg);
        if ('reason' in parsed) return { type: 'reject', reason: parsed.reason };
        this.started = true;
        this.bigEndian = parsed.info.audio.encoding === 'pcm16';
        return { type: 'start', info: parsed.info };
      }
      default: {
        const decoded = decodeStreamEvent(msg, (raw) => (this.bigEndian ? swap16(raw) : raw));
        if (decoded !== 'invalid') return decoded;
        this.invalidFrames++;
        return { type: 'ignore' };
      }
    }
  }

  decodeBinary(_data: Uint8Array): Decoded {
    return { type: 'ignore' };
  }

  encodeEvent(_event: SessionEvent): null {
    return null;
  }

  encodeOutbound(frame: OutboundFrame): WireMessage | null {
    if (this.product !== 'honeypot' || !this.started) return null;
    switch (frame.kind) {
      case 'audio': {
        const data = this.bigEndian ? swap16(frame.data) : frame.data;
        if (data.byteLength === 0) return null;
        return { ...textMessage({ event: 'media', media: { payload: encodeBase64(data) } }), audio: true };
      }
      case 'mark':
        return textMessage({ event: 'mark', mark: { name: frame.name } });
      case 'clear':
        return textMessage({ event: 'clear' });
      case 'hangup':
        return null;
    }
  }
}
