import type { SessionEvent } from '../domain/events.js';
import type { AudioEncoding, OutboundFrame, Track } from '../domain/frames.js';
import { MAX_SAMPLE_RATE, MIN_SAMPLE_RATE } from '../domain/limits.js';
import { copyBytes } from '../util/bytes.js';
import type { Decoded, Serializer, StartInfo, WireMessage } from './types.js';
import { dtmfDigit, isObject, parseObject, textMessage, type JsonObject } from './wire.js';

const RAW_ENCODINGS: readonly AudioEncoding[] = ['pcm16', 'mulaw'];
const MAX_CALL_ID = 256;
/** Caller and called party as given: numbers, SIP URIs, `anonymous`. */
const MAX_PARTY = 256;

/**
 * Validates the spec's start message field by field. Returns the start info, or the reason
 * (naming the field) why the socket must close with no events.
 */
export function parseRawStart(msg: JsonObject): { info: StartInfo } | { reason: string } {
  const callId = msg.call_id;
  if (callId !== undefined && callId !== null) {
    if (typeof callId !== 'string') return { reason: 'call_id must be a string' };
    if (callId.length > MAX_CALL_ID) return { reason: `call_id is longer than ${MAX_CALL_ID} characters` };
  }

  const numbers: { from?: string; to?: string } = {};
  for (const field of ['from', 'to'] as const) {
    const v = msg[field];
    // Kept as given ("anonymous", a national number): the record stores what the client sent, while events
    // carry only E.164 numbers and filing files only those. Absent, null, empty or not a string: not known.
    if (typeof v !== 'string' || v.trim() === '') continue;
    if (v.length > MAX_PARTY) return { reason: `${field} is longer than ${MAX_PARTY} characters` };
    numbers[field] = v;
  }

  let sampleRate = MIN_SAMPLE_RATE;
  if (msg.sample_rate !== undefined && msg.sample_rate !== null) {
    const r = msg.sample_rate;
    if (typeof r !== 'number' || !Number.isInteger(r) || r < MIN_SAMPLE_RATE || r > MAX_SAMPLE_RATE) {
      return { reason: `sample_rate must be an integer from ${MIN_SAMPLE_RATE} to ${MAX_SAMPLE_RATE}` };
    }
    sampleRate = r;
  }

  let encoding: AudioEncoding = 'pcm16';
  if (msg.encoding !== undefined && msg.encoding !== null) {
    if (typeof msg.encoding !== 'string' || !(RAW_ENCODINGS as readonly string[]).includes(msg.encoding)) {
      return { reason: `encoding must be one of ${RAW_ENCODINGS.join(', ')}` };
    }
    encoding = msg.encoding as AudioEncoding;
  }

  const params: Record<string, string> = {};
  if (msg.params !== undefined && msg.params !== null) {
    if (!isObject(msg.params)) return { reason: 'params must be an object' };
    for (const [k, v] of Object.entries(msg.params)) {
      if (typeof v !== 'string') return { reason: `params.${k} must be a string` };
      params[k] = v;
    }
  }

  const info: StartInfo = { audio: { encoding, sampleRate }, params, ...numbers };
  if (typeof callId === 'string' && callId !== '') info.callId = callId;
  return { info };
}

/** A `transcript` message as a text frame, or null when it carries nothing usable. */
function transcriptFrame(msg: JsonObject): Decoded {
  const { text, track, final, end_of_turn: endOfTurn } = msg;
  if (typeof text !== 'string' || text.trim() === '') return { type: 'ignore' };
  // `final` decides whether the line is scored and stored: only a JSON boolean is taken at its word. A
  // `"false"` string would otherwise store an interim guess as said; the message is ignored instead.
  if (final !== undefined && final !== null && typeof final !== 'boolean') return { type: 'ignore' };
  let t: Track = 'inbound';
  if (track !== undefined && track !== null) {
    // A wrong track label would put the callee's words in the caller's mouth: drop rather than guess.
    if (track !== 'inbound' && track !== 'outbound') return { type: 'ignore' };
    t = track;
  }
  return {
    type: 'frame',
    frame: {
      kind: 'text',
      track: t,
      text: text.trim(),
      final: typeof final === 'boolean' ? final : true,
      endOfTurn: typeof endOfTurn === 'boolean' ? endOfTurn : false,
    },
  };
}

/**
 * The service's own socket protocol: JSON text control messages, binary audio in the declared
 * encoding, events back as JSON text, honeypot audio back as binary frames.
 */
export class RawSerializer implements Serializer {
  readonly protocol = 'raw' as const;
  private started = false;

  decodeText(text: string): Decoded {
    const msg = parseObject(text);
    if (!msg) return { type: 'ignore' };
    switch (msg.type) {
      case 'start': {
        // Only the first start counts; a repeated one is an unknown message for a running session.
        if (this.started) return { type: 'ignore' };
        const parsed = parseRawStart(msg);
        if ('reason' in parsed) return { type: 'reject', reason: parsed.reason };
        this.started = true;
        return { type: 'start', info: parsed.info };
      }
      case 'transcript':
        return transcriptFrame(msg);
      case 'dtmf': {
        const digit = dtmfDigit(msg.digit);
        return digit ? { type: 'frame', frame: { kind: 'dtmf', digit } } : { type: 'ignore' };
      }
      case 'stop':
        return { type: 'frame', frame: { kind: 'stop', reason: 'stop' } };
      default:
        return { type: 'ignore' };
    }
  }

  decodeBinary(data: Uint8Array): Decoded {
    if (data.byteLength === 0) return { type: 'ignore' };
    // Copy: socket libraries reuse (or neuter) the buffer once the message callback returns.
    return { type: 'frame', frame: { kind: 'audio', track: 'inbound', data: copyBytes(data) } };
  }

  encodeEvent(event: SessionEvent): WireMessage {
    return textMessage(event);
  }

  encodeOutbound(frame: OutboundFrame): WireMessage | null {
    switch (frame.kind) {
      case 'audio':
        return { data: frame.data, binary: true, audio: true };
      case 'clear':
        return textMessage({ type: 'clear' });
      case 'mark':
        return textMessage({ type: 'mark', name: frame.name });
      case 'hangup':
        // The socket closes after session.ended; nothing to say on the wire.
        return null;
    }
  }
}
