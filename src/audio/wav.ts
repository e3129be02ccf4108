/*
 * RIFF/WAVE reading and writing. Reading is strict about what the header claims (a header that
 * promises more audio than the file holds, or a format that contradicts itself, is refused) and
 * lenient about what is harmless (unknown chunks, a trailing partial sample, a wrong RIFF size).
 */
import { ALAW_TO_PCM, MULAW_TO_PCM } from './g711.js';

export type WavCodec = 'pcm' | 'float' | 'mulaw' | 'alaw';

export interface WavInfo {
  codec: WavCodec;
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  blockAlign: number;
  /** The audio bytes (whole sample frames only). */
  data: Uint8Array;
  /** Sample frames (one sample per channel each). */
  frames: number;
}

/** Why a buffer is not usable audio; the message is meant for the client. */
export class WavError extends Error {
  constructor(
    message: string,
    /** true: a valid WAV whose codec this reader does not decode (another decoder may). */
    readonly unsupportedCodec = false,
  ) {
    super(message);
    this.name = 'WavError';
  }
}

const FORMAT_CODES: Readonly<Record<number, WavCodec>> = { 1: 'pcm', 3: 'float', 6: 'alaw', 7: 'mulaw' };
const EXTENSIBLE = 0xfffe;
/** Writers that stream a WAV before knowing its length leave these in the size fields. */
const UNKNOWN_SIZES = new Set([0, 0xffffffff]);

export function isWav(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WAVE';
}

export function parseWav(bytes: Uint8Array): WavInfo {
  if (bytes.length < 12) throw new WavError('too short to be a WAV file');
  if (!isWav(bytes)) throw new WavError('not a WAV file (no RIFF/WAVE header)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let fmt: Omit<WavInfo, 'data' | 'frames'> | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = ascii(bytes, offset, 4);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + size > bytes.length) throw new WavError('truncated fmt chunk');
      fmt = readFmt(view, body, size);
    } else if (id === 'data') {
      if (!fmt) throw new WavError('data chunk before the fmt chunk');
      const available = bytes.length - body;
      let length = size;
      if (size > available) {
        if (!UNKNOWN_SIZES.has(size)) {
          throw new WavError(`truncated: the header declares ${size} bytes of audio but ${available} are present`);
        }
        length = available;
      } else if (size === 0) {
        length = available;
      }
      const frames = Math.floor(length / fmt.blockAlign);
      if (frames === 0) throw new WavError('the data chunk holds no audio');
      return { ...fmt, data: bytes.subarray(body, body + frames * fmt.blockAlign), frames };
    } else if (body + size > bytes.length) {
      throw new WavError(`truncated "${id.replace(/[^\x20-\x7e]/g, '?')}" chunk`);
    }
    offset = body + size + (size % 2);
  }
  throw new WavError(fmt ? 'no data chunk' : 'no fmt chunk');
}

function readFmt(view: DataView, at: number, size: number): Omit<WavInfo, 'data' | 'frames'> {
  let code = view.getUint16(at, true);
  const channels = view.getUint16(at + 2, true);
  const sampleRate = view.getUint32(at + 4, true);
  const blockAlign = view.getUint16(at + 12, true);
  const bitsPerSample = view.getUint16(at + 14, true);
  if (code === EXTENSIBLE) {
    if (size < 40) throw new WavError('truncated extensible fmt chunk');
    code = view.getUint16(at + 24, true); // first two bytes of the sub-format GUID
  }
  const codec = FORMAT_CODES[code];
  if (!codec) throw new WavError(`WAV codec 0x${code.toString(16)} is not supported`, true);
  if (channels < 1 || channels > 8) throw new WavError(`invalid channel count ${channels}`);
  if (sampleRate < 4000 || sampleRate > 192_000) throw new WavError(`invalid sample rate ${sampleRate}`);
  const allowedBits = codec === 'pcm' ? [8, 16, 24, 32] : codec === 'float' ? [32] : [8];
  if (!allowedBits.includes(bitsPerSample)) throw new WavError(`${bitsPerSample}-bit ${codec} is not supported`);
  if (blockAlign !== (channels * bitsPerSample) / 8) {
    throw new WavError(`inconsistent header: block align ${blockAlign} for ${channels} × ${bitsPerSample}-bit`);
  }
  return { codec, sampleRate, channels, bitsPerSample, blockAlign };
}

/** The audio as mono 16-bit PCM (channels averaged). */
export function wavToMono(info: WavInfo): Int16Array {
  const { data, frames, channels, codec, bitsPerSample } = info;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const bytes = bitsPerSample / 8;
  const sample = (i: number): number => {
    const at = i * bytes;
    if (codec === 'mulaw') return MULAW_TO_PCM[data[at]!]!;
    if (codec === 'alaw') return ALAW_TO_PCM[data[at]!]!;
    if (codec === 'float') return Math.max(-1, Math.min(1, view.getFloat32(at, true))) * 32767;
    switch (bitsPerSample) {
      case 8:
        return (data[at]! - 128) << 8; // 8-bit WAV is unsigned
      case 16:
        return view.getInt16(at, true);
      case 24:
        return view.getInt16(at + 1, true);
      default:
        return view.getInt16(at + 2, true);
    }
  };
  const out = new Int16Array(frames);
  if (channels === 1) {
    for (let f = 0; f < frames; f++) out[f] = sample(f);
    return out;
  }
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += sample(f * channels + c);
    out[f] = Math.round(sum / channels);
  }
  return out;
}

/** Mono 16-bit PCM → a canonical 44-byte-header WAV file. */
export function writeWav(samples: Int16Array, sampleRate: number): Buffer {
  const dataBytes = samples.length * 2;
  const out = Buffer.alloc(44 + dataBytes);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + dataBytes, 4);
  out.write('WAVE', 8, 'ascii');
  out.write('fmt ', 12, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(1, 22);
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i]!, 44 + i * 2);
  return out;
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}
