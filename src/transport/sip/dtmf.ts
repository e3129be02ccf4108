/*
 * RFC 4733 telephone-events: a 4-byte payload (event, end bit, volume, duration). Every packet of one
 * key press shares the RTP timestamp of its start and the end packet is sent three times, so a digit
 * is taken once, from the first end packet of each timestamp.
 */

const EVENTS = '0123456789*#ABCD';

export interface TelephoneEvent {
  /** 0-9, *, #, A-D; null for events that are not keys (flash and others). */
  digit: string | null;
  end: boolean;
  volume: number;
  duration: number;
}

export function parseTelephoneEvent(payload: Uint8Array): TelephoneEvent | null {
  if (payload.length < 4) return null;
  const event = payload[0]!;
  return {
    digit: EVENTS[event] ?? null,
    end: (payload[1]! & 0x80) !== 0,
    volume: payload[1]! & 0x3f,
    duration: (payload[2]! << 8) | payload[3]!,
  };
}

export function buildTelephoneEvent(digit: string, end: boolean, duration: number, volume = 10): Uint8Array {
  const event = EVENTS.indexOf(digit.toUpperCase());
  if (event < 0) throw new RangeError(`not a DTMF key: ${digit}`);
  return Uint8Array.of(event, (end ? 0x80 : 0) | (volume & 0x3f), (duration >> 8) & 0xff, duration & 0xff);
}

/** Turns a stream of telephone-event packets into key presses, once each. */
export class DtmfDetector {
  /** Timestamps (per SSRC) whose key was already taken; bounded, oldest dropped first. */
  private readonly seen: string[] = [];

  /** The digit this packet completes, or null (not an end packet, a repeat, or not a key). */
  accept(ssrc: number, timestamp: number, payload: Uint8Array): string | null {
    const ev = parseTelephoneEvent(payload);
    if (!ev || !ev.end || ev.digit === null) return null;
    const id = `${ssrc}:${timestamp}`;
    if (this.seen.includes(id)) return null;
    this.seen.push(id);
    if (this.seen.length > 32) this.seen.shift();
    return ev.digit;
  }
}
