/*
 * Persona audio in the client's format: TTS output (22050 Hz eSpeak, 16 kHz Polly) resampled to the
 * session's rate and encoded in its encoding; and the caller's loudness, for barge-in and silence.
 */
import { encodeAlaw, encodeMulaw } from '../audio/g711-encode.js';
import type { AudioEncoding, AudioFormat } from '../domain/frames.js';
import type { SpeechAudio } from '../providers/tts/types.js';

export function bytesPerSample(encoding: AudioEncoding): number {
  return encoding === 'pcm16' ? 2 : 1;
}

/** Bytes in one frame of `ms` milliseconds. */
export function frameBytes(format: AudioFormat, ms = 20): number {
  return Math.round((format.sampleRate * ms) / 1000) * bytesPerSample(format.encoding);
}

export function toClientAudio(audio: SpeechAudio, format: AudioFormat): Uint8Array {
  const pcm = resample(audio.pcm, audio.sampleRate, format.sampleRate);
  if (format.encoding === 'mulaw') return encodeMulaw(pcm);
  if (format.encoding === 'alaw') return encodeAlaw(pcm);
  const out = new Uint8Array(pcm.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < pcm.length; i++) view.setInt16(i * 2, pcm[i]!, true);
  return out;
}

/**
 * Band-limited resampling for one whole utterance: a windowed-sinc low-pass below the lower Nyquist
 * (so 22 kHz speech does not alias into an 8 kHz call), evaluated at each output instant.
 */
export function resample(pcm: Int16Array, from: number, to: number): Int16Array {
  if (from === to || pcm.length === 0) return pcm;
  const n = Math.max(1, Math.floor((pcm.length * to) / from));
  const out = new Int16Array(n);
  const ratio = from / to;
  const cutoff = Math.min(1, to / from) * 0.92; // of the input Nyquist
  const half = 12; // taps each side, in input samples scaled by the cutoff
  const radius = Math.ceil(half / cutoff);
  for (let i = 0; i < n; i++) {
    const x = i * ratio;
    const c = Math.floor(x);
    let acc = 0;
    let norm = 0;
    for (let k = c - radius + 1; k <= c + radius; k++) {
      if (k < 0 || k >= pcm.length) continue;
      const d = x - k;
      const t = d * cutoff;
      const sinc = t === 0 ? 1 : Math.sin(Math.PI * t) / (Math.PI * t);
      const w = 0.5 + 0.5 * Math.cos((Math.PI * d) / radius); // Hann window
      const h = sinc * w;
      acc += pcm[k]! * h;
      norm += h;
    }
    const v = norm !== 0 ? acc / norm : 0;
    out[i] = Math.max(-32768, Math.min(32767, Math.round(v)));
  }
  return out;
}

// Decoding tables for loudness only; transcription has its own decoder.
const MULAW = new Int16Array(256);
const ALAW = new Int16Array(256);
for (let i = 0; i < 256; i++) {
  const u = ~i & 0xff;
  const t = (((u & 0x0f) << 3) + 0x84) << ((u & 0x70) >> 4);
  MULAW[i] = u & 0x80 ? 0x84 - t : t - 0x84;
  const a = i ^ 0x55;
  const seg = (a & 0x70) >> 4;
  let v = (a & 0x0f) << 4;
  v = seg === 0 ? v + 8 : seg === 1 ? v + 0x108 : (v + 0x108) << (seg - 1);
  ALAW[i] = a & 0x80 ? v : -v;
}

export function decodeSample(data: Uint8Array, i: number, encoding: AudioEncoding): number {
  if (encoding === 'mulaw') return MULAW[data[i]!]!;
  if (encoding === 'alaw') return ALAW[data[i]!]!;
  const lo = data[i * 2]!;
  const hi = data[i * 2 + 1]!;
  return (((hi << 8) | lo) << 16) >> 16;
}

/** Loudness (RMS of 16-bit samples) and length of one caller audio frame. */
export function frameLevel(data: Uint8Array, format: AudioFormat): { rms: number; ms: number } {
  const n = Math.floor(data.length / bytesPerSample(format.encoding));
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const s = decodeSample(data, i, format.encoding);
    sum += s * s;
  }
  return { rms: n ? Math.sqrt(sum / n) : 0, ms: (n * 1000) / format.sampleRate };
}
