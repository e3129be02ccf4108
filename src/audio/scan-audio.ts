/*
 * Audio for POST /scan: whatever the client uploaded → mono PCM → the recogniser → caller utterances.
 * WAV and raw PCM/mu-law are read here; other containers (MP3, OGG, M4A …) are recognised by their
 * magic bytes and decoded by ffmpeg. Bad audio is the client's error (400 naming the field); a
 * recogniser that is missing or fails is ours (502).
 */
import { from, lastValueFrom, filter, map, toArray, type Observable } from 'rxjs';
import type { Utterance } from '../domain/frames.js';
import { HttpError } from '../server/types.js';
import type { Services } from '../services.js';
import { resample } from '../../operators/resample.js';
import { segment } from '../../operators/segment.js';
import { transcribe } from '../../operators/transcribe.js';
import { sniffContainer } from './container.js';
import { decodeWithFfmpeg, FfmpegError } from './ffmpeg.js';
import { MULAW_TO_PCM, decodeG711 } from './g711.js';
import { pcm16FromBytes } from './pcm16.js';
import { isWav, parseWav, WavError, wavToMono } from './wav.js';

export interface ScanAudioInput {
  bytes: Buffer;
  encoding: 'wav' | 'pcm16' | 'mulaw';
  sampleRate?: number;
  language?: string;
  /** The request field that carried the audio, named in error messages. */
  field: 'audio_base64' | 'audio';
}

interface LoadedAudio {
  samples: Int16Array;
  sampleRate: number;
  /** Rate of the recording as uploaded (differs from `sampleRate` after ffmpeg). */
  sourceRate: number;
  seconds: number;
}

/** Decoded uploads, so pricing (probeDuration) and transcription decode a compressed file only once. */
const decoded = new WeakMap<Buffer, Promise<LoadedAudio>>();

/** Length of the uploaded audio in seconds, for pricing before any transcription. */
export async function probeDuration(input: Omit<ScanAudioInput, 'language'>, signal?: AbortSignal): Promise<number> {
  return (await load(input, signal)).seconds;
}

export async function transcribeScanAudio(
  services: Pick<Services, 'stt'> & { config?: Pick<Services['config'], 'tuning'> },
  input: ScanAudioInput,
  signal?: AbortSignal,
): Promise<{ utterances: Utterance[]; seconds: number }> {
  const audio = await load(input, signal);
  if (signal?.aborted) throw signal.reason;
  const stt = services.stt;
  if (!stt) throw new HttpError(502, 'transcription failed: this deployment has no speech-to-text');
  const opts = input.language
    ? { language: input.language, sourceRate: audio.sourceRate }
    : { sourceRate: audio.sourceRate };
  let pcm$: Observable<Int16Array> = from(chunks(audio.samples, Math.round(audio.sampleRate / 10))).pipe(
    resample(audio.sampleRate, stt.sampleRate),
  );
  if (stt.wantsSegments)
    pcm$ = pcm$.pipe(segment({ ...services.config?.tuning?.segmenter, sampleRate: stt.sampleRate }));
  const texts$ = pcm$.pipe(
    transcribe(stt, opts),
    filter((r) => r.final && r.text.trim() !== ''),
    map((r) => r.text.trim()),
    toArray(),
  );
  let texts: string[];
  try {
    texts = await untilAborted(texts$, signal);
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    throw new HttpError(502, `transcription failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  const at = Date.now();
  const utterances = texts.map((text): Utterance => ({ role: 'caller', speaker: 'caller', text, at }));
  return { utterances, seconds: audio.seconds };
}

function load(input: Omit<ScanAudioInput, 'language'>, signal?: AbortSignal): Promise<LoadedAudio> {
  let pending = decoded.get(input.bytes);
  if (!pending) {
    pending = loadNow(input, signal);
    decoded.set(input.bytes, pending);
    // A failed or aborted decode may be retried by a later call.
    pending.catch(() => decoded.delete(input.bytes));
  }
  return pending;
}

async function loadNow(input: Omit<ScanAudioInput, 'language'>, signal?: AbortSignal): Promise<LoadedAudio> {
  const { bytes, field } = input;
  if (bytes.length === 0) throw new HttpError(400, `${field}: no audio`);
  switch (input.encoding) {
    case 'pcm16': {
      const rate = input.sampleRate;
      if (rate === undefined) throw new HttpError(400, 'sample_rate: required for pcm16');
      if (bytes.length < 2) throw new HttpError(400, `${field}: no audio`);
      return loaded(pcm16FromBytes(bytes), rate);
    }
    case 'mulaw':
      return loaded(decodeG711(bytes, MULAW_TO_PCM), input.sampleRate ?? 8000);
    case 'wav':
      return isWav(bytes) ? readWav(bytes, field, signal) : readContainer(bytes, field, signal);
  }
}

async function readWav(bytes: Buffer, field: string, signal?: AbortSignal): Promise<LoadedAudio> {
  try {
    const info = parseWav(bytes);
    return loaded(wavToMono(info), info.sampleRate);
  } catch (e) {
    // A WAV with a compressed codec inside (ADPCM, GSM, MP3 …) is still readable by ffmpeg.
    if (e instanceof WavError && e.unsupportedCodec) return readContainer(bytes, field, signal);
    if (e instanceof WavError) throw new HttpError(400, `${field}: ${e.message}`);
    throw e;
  }
}

async function readContainer(bytes: Buffer, field: string, signal?: AbortSignal): Promise<LoadedAudio> {
  const container = sniffContainer(bytes);
  if (!container)
    throw new HttpError(400, `${field}: not a WAV file or a recognised audio format (MP3, OGG, M4A, FLAC, WebM)`);
  try {
    const d = await decodeWithFfmpeg(bytes, signal);
    if (d.samples.length === 0) throw new HttpError(400, `${field}: the ${container} recording holds no audio`);
    return { ...loaded(d.samples, d.sampleRate), sourceRate: d.sourceRate ?? d.sampleRate };
  } catch (e) {
    if (e instanceof FfmpegError) {
      if (/not available/.test(e.message))
        throw new HttpError(502, `${field}: cannot decode ${container} here (no ffmpeg)`);
      throw new HttpError(400, `${field}: unreadable ${container} recording (${e.message})`);
    }
    throw e;
  }
}

function loaded(samples: Int16Array, sampleRate: number): LoadedAudio {
  return { samples, sampleRate, sourceRate: sampleRate, seconds: samples.length / sampleRate };
}

function* chunks(samples: Int16Array, size: number): Generator<Int16Array> {
  for (let i = 0; i < samples.length; i += size) yield samples.subarray(i, i + size);
}

/** The observable's last value; unsubscribing (which stops the recogniser) when the request is aborted. */
function untilAborted<T>(source$: Observable<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return lastValueFrom(source$);
  return new Promise<T>((resolve, reject) => {
    let last: T | undefined;
    const onAbort = (): void => {
      sub.unsubscribe();
      reject(signal.reason);
    };
    const sub = source$.subscribe({
      next: (v) => (last = v),
      error: (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
      complete: () => {
        signal.removeEventListener('abort', onAbort);
        resolve(last as T);
      },
    });
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
