import type { Decoded } from './types.js';

/** Small parsing helpers shared by the serializers: untrusted wire text never throws past these. */

export type JsonObject = Record<string, unknown>;

/** The message as a plain JSON object, or null for anything else (bad JSON, arrays, scalars). */
export function parseObject(text: string): JsonObject | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return isObject(value) ? value : null;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A nested object field, or an empty object when absent or of another type. */
export function objectField(obj: JsonObject, name: string): JsonObject {
  const v = obj[name];
  return isObject(v) ? v : {};
}

export function stringField(obj: JsonObject, name: string): string | undefined {
  const v = obj[name];
  return typeof v === 'string' ? v : undefined;
}

/** Only the string values of a flat map (vendor custom parameters); anything else is dropped. */
export function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(value)) return out;
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Strict base64 (Node's decoder silently skips bad characters, which would turn a corrupt
 * frame into noise in the transcript). Null when the text is not canonical base64.
 */
export function decodeBase64(text: string): Uint8Array | null {
  if (!BASE64.test(text)) return null;
  const b = Buffer.from(text, 'base64');
  // A view, not a copy: small decodes come from Node's pool (src/util/bytes.ts).
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

export function encodeBase64(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
}

/** DTMF keys a telephone can send (RFC 4733 events 0–15). */
export function dtmfDigit(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const d = value.trim().toUpperCase();
  return /^[0-9*#A-D]$/.test(d) ? d : null;
}

export function textMessage(value: unknown): { data: string; binary: false } {
  return { data: JSON.stringify(value), binary: false };
}

/**
 * The events both vendors send after `start`: base64 `media` on a track, `dtmf`, `stop`; everything else
 * (connected, mark echoes, error reports, whatever a vendor adds) is ignored. `'invalid'` is a media
 * payload that is not canonical base64, which the serializer counts. `audio` converts a payload to the
 * session's byte order (vendor B's L16 is big-endian).
 */
export function decodeStreamEvent(
  msg: JsonObject,
  audio: (payload: Uint8Array) => Uint8Array = (p) => p,
): Decoded | 'invalid' {
  switch (msg.event) {
    case 'media': {
      const media = objectField(msg, 'media');
      const payload = stringField(media, 'payload');
      if (payload === undefined || payload === '') return { type: 'ignore' };
      const raw = decodeBase64(payload);
      if (!raw) return 'invalid';
      const data = audio(raw);
      if (data.byteLength === 0) return { type: 'ignore' };
      // The graph decides whether the outbound track (the callee) is transcribed (tracks=both).
      const track = media.track === 'outbound' ? 'outbound' : 'inbound';
      return { type: 'frame', frame: { kind: 'audio', track, data } };
    }
    case 'dtmf': {
      const digit = dtmfDigit(objectField(msg, 'dtmf').digit);
      return digit ? { type: 'frame', frame: { kind: 'dtmf', digit } } : { type: 'ignore' };
    }
    case 'stop':
      return { type: 'frame', frame: { kind: 'stop', reason: 'stop' } };
    default:
      return { type: 'ignore' };
  }
}
