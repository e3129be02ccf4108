/*
 * Wire format between the eSpeak child process and the service (stdio):
 *   request  (parent → child, stdin):  one JSON object per line: { id, text, voice, rate?, pitch? }
 *   response (child → parent, stdout): [u32 LE header length][header JSON][u32 LE PCM byte length][PCM s16le mono]
 *   header: { id, ok: true, sampleRate } or { id, ok: false, error }
 */
export interface SynthRequest {
  id: number;
  text: string;
  voice: string;
  rate?: number;
  pitch?: number;
}

export type SynthHeader = { id: number; ok: true; sampleRate: number } | { id: number; ok: false; error: string };

export function encodeResponse(header: SynthHeader, pcm: Int16Array | null): Buffer {
  const head = Buffer.from(JSON.stringify(header), 'utf8');
  const body = pcm ? Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength) : Buffer.alloc(0);
  const out = Buffer.alloc(8 + head.length + body.length);
  out.writeUInt32LE(head.length, 0);
  head.copy(out, 4);
  out.writeUInt32LE(body.length, 4 + head.length);
  body.copy(out, 8 + head.length);
  return out;
}

/** Incremental reader: feed stdout chunks, get complete responses back. */
export class ResponseReader {
  private buf: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Array<{ header: SynthHeader; pcm: Int16Array }> {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: Array<{ header: SynthHeader; pcm: Int16Array }> = [];
    for (;;) {
      if (this.buf.length < 4) break;
      const headLen = this.buf.readUInt32LE(0);
      if (this.buf.length < 8 + headLen) break;
      const bodyLen = this.buf.readUInt32LE(4 + headLen);
      const total = 8 + headLen + bodyLen;
      if (this.buf.length < total) break;
      const header = JSON.parse(this.buf.subarray(4, 4 + headLen).toString('utf8')) as SynthHeader;
      const bytes = this.buf.subarray(8 + headLen, total);
      // Copy into an aligned buffer: Int16Array needs an even byte offset.
      const pcm = new Int16Array(bodyLen / 2);
      Buffer.from(pcm.buffer).set(bytes);
      out.push({ header, pcm });
      this.buf = this.buf.subarray(total);
    }
    return out;
  }
}
