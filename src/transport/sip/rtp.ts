/*
 * RTP packets (RFC 3550 §5.1): the 12-byte fixed header, CSRCs, the header extension and padding
 * are understood on input; output is always the fixed header and the payload.
 */

export interface RtpPacket {
  payloadType: number;
  marker: boolean;
  sequence: number;
  timestamp: number;
  ssrc: number;
  payload: Uint8Array;
}

/** Parses one datagram, or null when it is not RTP version 2 (RTCP and stray packets included). */
export function parseRtp(buf: Uint8Array): RtpPacket | null {
  if (buf.length < 12 || buf[0]! >> 6 !== 2) return null;
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const b0 = buf[0]!;
  const b1 = buf[1]!;
  const payloadType = b1 & 0x7f;
  // RTCP shares the port when rtcp-mux is used: its packet types 200-204 land on 72-76 here.
  if (payloadType >= 72 && payloadType <= 76) return null;
  let offset = 12 + 4 * (b0 & 0x0f);
  if (b0 & 0x10) {
    if (buf.length < offset + 4) return null;
    offset += 4 + 4 * view.getUint16(offset + 2);
  }
  let end = buf.length;
  if (b0 & 0x20) end -= buf[buf.length - 1]!;
  if (offset > end) return null;
  return {
    payloadType,
    marker: (b1 & 0x80) !== 0,
    sequence: view.getUint16(2),
    timestamp: view.getUint32(4),
    ssrc: view.getUint32(8),
    payload: buf.subarray(offset, end),
  };
}

export function buildRtp(p: RtpPacket): Buffer {
  const out = Buffer.alloc(12 + p.payload.length);
  out[0] = 0x80;
  out[1] = (p.marker ? 0x80 : 0) | (p.payloadType & 0x7f);
  out.writeUInt16BE(p.sequence & 0xffff, 2);
  out.writeUInt32BE(p.timestamp >>> 0, 4);
  out.writeUInt32BE(p.ssrc >>> 0, 8);
  out.set(p.payload, 12);
  return out;
}

/** a - b in 16-bit sequence space, as a signed distance (-32768..32767). */
export function seqDelta(a: number, b: number): number {
  return ((a - b + 0x8000) & 0xffff) - 0x8000;
}
