/*
 * Decoding of compressed recordings (MP3, OGG, M4A, FLAC …) to 16 kHz mono PCM with ffmpeg. The
 * system's ffmpeg is preferred (newer codecs); the static build shipped with @ffmpeg-installer is the
 * fallback where none is installed.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import ffmpeg from 'fluent-ffmpeg';
import { isExecutable } from '../util/files.js';

let resolved: string | null | undefined;

/** Path of the ffmpeg binary in use, or null when neither is available. */
export function ffmpegPath(): string | null {
  if (resolved !== undefined) return resolved;
  const candidates = (process.env.PATH ?? '/usr/bin').split(path.delimiter).map((dir) => path.join(dir, 'ffmpeg'));
  try {
    const bundled = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
    candidates.push(bundled);
  } catch {
    // not installed: the system binary is the only option
  }
  resolved = candidates.find(isExecutable) ?? null;
  return resolved;
}

export interface Decoded {
  samples: Int16Array;
  sampleRate: number;
  /** Rate of the recording before conversion, when ffmpeg reported it. */
  sourceRate?: number;
}

export class FfmpegError extends Error {
  override name = 'FfmpegError';
}

/** Decodes a whole recording in memory to mono PCM at `rate` Hz. */
export function decodeWithFfmpeg(input: Uint8Array, signal?: AbortSignal, rate = 16_000): Promise<Decoded> {
  const bin = ffmpegPath();
  if (!bin) return Promise.reject(new FfmpegError('ffmpeg is not available'));
  return new Promise<Decoded>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let sourceRate: number | undefined;
    let settled = false;
    const sink = new PassThrough();
    sink.on('data', (c: Buffer) => chunks.push(c));
    const command = ffmpeg(Readable.from([Buffer.from(input.buffer, input.byteOffset, input.byteLength)]))
      .setFfmpegPath(bin)
      .noVideo()
      .audioChannels(1)
      .audioFrequency(rate)
      .audioCodec('pcm_s16le')
      .format('s16le')
      .on('codecData', (data: { audio_details: string[] }) => {
        const hz = (data.audio_details ?? []).map((d) => /^(\d+) Hz$/.exec(d.trim())?.[1]).find(Boolean);
        if (hz) sourceRate = Number(hz);
      })
      .on('error', (err: Error, _stdout: string | null, stderr: string | null) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        const detail = (stderr ?? err.message).trim().split('\n').slice(-1)[0] ?? err.message;
        reject(signal?.aborted ? signal.reason : new FfmpegError(detail));
      })
      .on('end', () => {
        sink.end();
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        const all = Buffer.concat(chunks);
        const samples = new Int16Array(all.length >> 1);
        for (let i = 0; i < samples.length; i++) samples[i] = all.readInt16LE(i * 2);
        resolve(sourceRate ? { samples, sampleRate: rate, sourceRate } : { samples, sampleRate: rate });
      });
    const onAbort = (): void => {
      command.kill('SIGKILL');
    };
    if (signal?.aborted) {
      settled = true;
      reject(signal.reason);
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    command.pipe(sink, { end: false });
  });
}
