/*
 * Audio for POST /scan: whatever the client uploaded → mono PCM → the recogniser → caller utterances.
 * WAV and raw PCM/mu-law are read here; other containers (MP3, OGG, M4A …) are recognised by their
 * magic bytes and decoded by ffmpeg. Bad audio is the client's error (`bad_audio`, naming the field); a
 * recogniser that is missing or fails is ours, and so is a recording longer than this node's own
 * recogniser can transcribe before the time-out: refused at once, naming the limit (`ScanAudioError`).
 * Utterances are decoded in parallel, one per decoder the recogniser has.
 */
import { from, lastValueFrom, filter, map, mergeMap, of, toArray, type Observable } from 'rxjs';
import type { Utterance } from '../../src/domain/frames.js';
import { resample } from '../../operators/resample.js';
import { segment } from '../../operators/segment.js';
import { transcribe, type TranscribeOptions } from '../../operators/transcribe.js';
import type { SpeechToText, SttResult } from '../../src/providers/stt/types.js';
import type { PortsOf } from '../ports.js';
import { ScanAudioError } from './audio-error.js';
import { scanBudget } from '../../src/audio/scan-budget.js';
import { sniffContainer } from '../../src/audio/container.js';
import { decodeWithFfmpeg, FfmpegError } from '../../src/audio/ffmpeg.js';
import { MULAW_TO_PCM, decodeG711 } from '../../src/audio/g711.js';
import { pcm16FromBytes } from '../../src/audio/pcm16.js';
import { isWav, parseWav, WavError, wavToMono } from '../../src/audio/wav.js';

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

export interface ScanDeadline {
  /** When the transcription must be done (epoch ms). */
  at: number;
  /** The request's time-out, named in the answer. */
  timeoutSeconds: number;
}

export async function transcribeScanAudio(
  ports: PortsOf<'stt' | 'tuning'>,
  input: ScanAudioInput,
  signal?: AbortSignal,
  deadline?: ScanDeadline,
): Promise<{ utterances: Utterance[]; seconds: number }> {
  const audio = await load(input, signal);
  if (signal?.aborted) throw signal.reason;
  const stt = ports.stt;
  if (!stt) throw new ScanAudioError('unavailable', 'transcription failed: this deployment has no speech-to-text');
  const opts = {
    ...(input.language ? { language: input.language } : {}),
    sourceRate: audio.sourceRate,
    priority: 'scan' as const,
  };
  const pcm$ = from(chunks(audio.samples, Math.round(audio.sampleRate / 10))).pipe(
    resample(audio.sampleRate, stt.sampleRate),
  );
  let results$: Observable<SttResult>;
  if (stt.wantsSegments) {
    // Cut first (the VAD is cheap), so the node knows how much speech there is before decoding any.
    const segmenter = { ...ports.tuning?.segmenter, sampleRate: stt.sampleRate };
    const utterances = await lastValueFrom(pcm$.pipe(segment(segmenter), toArray()));
    if (stt.local && deadline) refuseIfTooLong(stt.local, audio, utterances, stt.sampleRate, deadline);
    results$ = inParallel(utterances, stt, opts, stt.local?.parallel ?? 1);
  } else {
    results$ = pcm$.pipe(transcribe(stt, opts));
  }
  const texts$ = results$.pipe(
    filter((r) => r.final && r.text.trim() !== ''),
    map((r) => r.text.trim()),
    toArray(),
  );
  let texts: string[];
  try {
    texts = await untilAborted(texts$, signal);
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    throw new ScanAudioError('failed', `transcription failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  const at = Date.now();
  const utterances = texts.map((text): Utterance => ({ role: 'caller', speaker: 'caller', text, at }));
  return { utterances, seconds: audio.seconds };
}

/** Utterances decoded `parallel` at a time (one per decoder), results in the order spoken. */
function inParallel(
  utterances: Int16Array[],
  stt: SpeechToText,
  opts: TranscribeOptions & { priority: 'scan' },
  parallel: number,
): Observable<SttResult> {
  return from(utterances.map((u, i) => [u, i] as const)).pipe(
    mergeMap(
      ([u, i]) =>
        of(u).pipe(
          transcribe(stt, opts),
          toArray(),
          map((results) => ({ i, results })),
        ),
      parallel,
    ),
    toArray(),
    mergeMap((done) => done.sort((a, b) => a.i - b.i).flatMap((d) => d.results)),
  );
}

function refuseIfTooLong(
  local: NonNullable<SpeechToText['local']>,
  audio: LoadedAudio,
  utterances: Int16Array[],
  rate: number,
  deadline: ScanDeadline,
): void {
  const speechSeconds = utterances.reduce((n, u) => n + u.length, 0) / rate;
  const budget = scanBudget({
    recordingSeconds: audio.seconds,
    speechSeconds,
    budgetSeconds: (deadline.at - Date.now()) / 1000,
    estimate: (speech) => local.estimateSeconds(speech, audio.sourceRate),
  });
  if (budget.fits) return;
  const minutes = (s: number): string => (s / 60).toFixed(1);
  throw new ScanAudioError(
    'too_long',
    `transcription failed: this node can transcribe about ${minutes(budget.maxRecordingSeconds)} minutes of ` +
      `such a recording within the ${deadline.timeoutSeconds} s scan time-out now; this one is ` +
      `${minutes(audio.seconds)} minutes (${minutes(speechSeconds)} of speech). Send it in shorter parts.`,
  );
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
  if (bytes.length === 0) throw new ScanAudioError('bad_audio', `${field}: no audio`);
  switch (input.encoding) {
    case 'pcm16': {
      const rate = input.sampleRate;
      if (rate === undefined) throw new ScanAudioError('bad_audio', 'sample_rate: required for pcm16');
      if (bytes.length < 2) throw new ScanAudioError('bad_audio', `${field}: no audio`);
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
    if (e instanceof WavError) throw new ScanAudioError('bad_audio', `${field}: ${e.message}`);
    throw e;
  }
}

async function readContainer(bytes: Buffer, field: string, signal?: AbortSignal): Promise<LoadedAudio> {
  const container = sniffContainer(bytes);
  if (!container)
    throw new ScanAudioError(
      'bad_audio',
      `${field}: not a WAV file or a recognised audio format (MP3, OGG, M4A, FLAC, WebM)`,
    );
  try {
    const d = await decodeWithFfmpeg(bytes, signal);
    if (d.samples.length === 0)
      throw new ScanAudioError('bad_audio', `${field}: the ${container} recording holds no audio`);
    return { ...loaded(d.samples, d.sampleRate), sourceRate: d.sourceRate ?? d.sampleRate };
  } catch (e) {
    if (e instanceof FfmpegError) {
      if (/not available/.test(e.message))
        throw new ScanAudioError('unavailable', `${field}: cannot decode ${container} here (no ffmpeg)`);
      throw new ScanAudioError('bad_audio', `${field}: unreadable ${container} recording (${e.message})`);
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
