/*
 * Persona audio in the client's format: TTS output (22050 Hz eSpeak, 16 kHz Polly) resampled to the
 * session's rate and encoded in its encoding; and the caller's loudness, for barge-in and silence.
 */
import { ALAW_TO_PCM, MULAW_TO_PCM } from '../../src/audio/g711.js';
import { encodeAlaw, encodeMulaw } from '../../src/audio/g711-encode.js';
import { resampleAll } from '../../src/audio/resampler.js';
import type { AudioEncoding, AudioFormat } from '../../src/domain/frames.js';
import { MIN_FRAME_MS } from '../../src/domain/limits.js';
import type { SpeechAudio } from '../../src/providers/tts/types.js';

export function bytesPerSample(encoding: AudioEncoding): number {
  return encoding === 'pcm16' ? 2 : 1;
}

/** Bytes in one frame of `ms` milliseconds. */
export function frameBytes(format: AudioFormat, ms = MIN_FRAME_MS): number {
  return Math.round((format.sampleRate * ms) / 1000) * bytesPerSample(format.encoding);
}

export function toClientAudio(audio: SpeechAudio, format: AudioFormat): Uint8Array {
  // Band-limited (Speex): 22 kHz speech must not alias into an 8 kHz call.
  const pcm = resampleAll(audio.pcm, audio.sampleRate, format.sampleRate);
  if (format.encoding === 'mulaw') return encodeMulaw(pcm);
  if (format.encoding === 'alaw') return encodeAlaw(pcm);
  const out = new Uint8Array(pcm.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < pcm.length; i++) view.setInt16(i * 2, pcm[i]!, true);
  return out;
}

export function decodeSample(data: Uint8Array, i: number, encoding: AudioEncoding): number {
  if (encoding === 'mulaw') return MULAW_TO_PCM[data[i]!]!;
  if (encoding === 'alaw') return ALAW_TO_PCM[data[i]!]!;
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
