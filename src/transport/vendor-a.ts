import type { SessionEvent, SessionKind } from '../domain/events.js';
import type { OutboundFrame } from '../domain/frames.js';
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

/** The only audio vendor A streams: G.711 mu-law, 8 kHz, mono. */
const VENDOR_A_ENCODING = 'audio/x-mulaw';
const VENDOR_A_RATE = 8000;

/** Does this start event have vendor A's shape (camelCase ids)? */
export function looksLikeVendorAStart(msg: JsonObject): boolean {
  const start = objectField(msg, 'start');
  return typeof msg.streamSid === 'string' || typeof start.callSid === 'string' || 'customParameters' in start;
}

/** Vendor A's start event → start info; null reason when it cannot start a session. */
export function parseVendorAStart(msg: JsonObject): { info: StartInfo } | { reason: string } {
  const start = objectField(msg, 'start');
  const format = objectField(start, 'mediaFormat');
  const encoding = stringField(format, 'encoding');
  if (encoding !== undefined && encoding !== VENDOR_A_ENCODING) {
    return { reason: `start.mediaFormat.encoding ${encoding} is not supported (expected ${VENDOR_A_ENCODING})` };
  }
  const rate = format.sampleRate;
  if (rate !== undefined && Number(rate) !== VENDOR_A_RATE) {
    return { reason: `start.mediaFormat.sampleRate must be ${VENDOR_A_RATE}` };
  }

  // Vendor A never sends the numbers itself: they ride as <Parameter>s from the voice webhook.
  const params = stringMap(start.customParameters);
  const { from, to, ...options } = params;
  const info: StartInfo = { audio: { encoding: 'mulaw', sampleRate: VENDOR_A_RATE }, params: options };
  // Kept as given, a withheld or non-numeric caller ("anonymous", "client:…") too: only E.164 is filed.
  if (from?.trim()) info.from = from;
  if (to?.trim()) info.to = to;
  const callId = stringField(start, 'callSid');
  if (callId) info.callId = callId;
  const streamId = stringField(msg, 'streamSid') ?? stringField(start, 'streamSid');
  if (streamId) info.streamId = streamId;
  if (Array.isArray(start.tracks)) info.tracks = start.tracks.filter((t): t is string => typeof t === 'string');
  return { info };
}

/**
 * Vendor A media streams. The filter rides a unidirectional stream, where anything sent back is a
 * protocol error that can drop the stream: this serializer then writes nothing at all and events go
 * only to the webhook. On the honeypot (bidirectional) it writes only media, mark and clear.
 */
export class VendorASerializer implements Serializer {
  readonly protocol = 'vendor_a' as const;
  private streamSid: string | undefined;
  private started = false;
  /** Media frames dropped because their payload was not valid base64. */
  invalidFrames = 0;

  constructor(private readonly product: SessionKind) {}

  decodeText(text: string): Decoded {
    const msg = parseObject(text);
    if (!msg) return { type: 'ignore' };
    switch (msg.event) {
      case 'start': {
        if (this.started) return { type: 'ignore' };
        const parsed = parseVendorAStart(msg);
        if ('reason' in parsed) return { type: 'reject', reason: parsed.reason };
        // Every message back must name the stream: a persona without one could never be heard.
        if (this.product === 'honeypot' && !parsed.info.streamId) {
          return { type: 'reject', reason: 'streamSid is missing (needed to send audio back)' };
        }
        this.started = true;
        this.streamSid = parsed.info.streamId;
        return { type: 'start', info: parsed.info };
      }
      default: {
        const decoded = decodeStreamEvent(msg);
        if (decoded !== 'invalid') return decoded;
        this.invalidFrames++;
        return { type: 'ignore' };
      }
    }
  }

  /** Vendor A has no binary messages; a binary frame is not audio we can trust. */
  decodeBinary(_data: Uint8Array): Decoded {
    return { type: 'ignore' };
  }

  encodeEvent(_event: SessionEvent): null {
    return null;
  }

  encodeOutbound(frame: OutboundFrame): WireMessage | null {
    if (this.product !== 'honeypot' || !this.streamSid) return null;
    const streamSid = this.streamSid;
    switch (frame.kind) {
      case 'audio':
        if (frame.data.byteLength === 0) return null;
        return {
          ...textMessage({ event: 'media', streamSid, media: { payload: encodeBase64(frame.data) } }),
          audio: true,
        };
      case 'mark':
        return textMessage({ event: 'mark', streamSid, mark: { name: frame.name } });
      case 'clear':
        return textMessage({ event: 'clear', streamSid });
      case 'hangup':
        // Closing the socket ends <Connect><Stream>; the XML's <Hangup/> then ends the call.
        return null;
    }
  }
}
