/*
 * AWS Transcribe Streaming: one HTTP/2 event stream per transcribed track. Audio is sent as 16 kHz
 * PCM in chunks of about 100 ms; final results become final SttResults, partial ones interim.
 *
 * A stream is limited to four hours of audio, so a long track is carried over to a fresh stream
 * before the limit. Transient failures (service errors, throttling, dropped connections) reconnect:
 * audio the service had not yet finalised (after the end time of its last final result) is sent
 * again on the new stream, then the rest. A refusal of the request itself ends the track.
 */
import {
  StartStreamTranscriptionCommand,
  TranscribeStreamingClient,
  type AudioStream,
  type LanguageCode,
  type StartStreamTranscriptionCommandInput,
  type TranscriptResultStream,
} from '@aws-sdk/client-transcribe-streaming';
import { Observable } from 'rxjs';
import type { Logger } from '../../log.js';
import { ProviderError } from '../errors.js';
import { AudioQueue } from './audio-queue.js';
import { languageWithRegion } from './language.js';
import type { SpeechToText, SttOptions, SttResult } from './types.js';

export interface AwsTranscribeOptions {
  /** A configured client (endpoint, credentials); default: the SDK's standard configuration. */
  client?: TranscribeStreamingClient;
  /** Audio seconds per stream before it is carried over to a new one (service limit: 4 hours). */
  maxStreamSeconds?: number;
  /** Reconnects in a row without a result before the track fails. */
  maxReconnects?: number;
  /** Wait before reconnect n is n × this. */
  retryDelayMs?: number;
}

const SAMPLE_RATE = 16_000;
const CHUNK_BYTES = (SAMPLE_RATE * 2) / 10; // 100 ms
const MAX_CHUNK_BYTES = CHUNK_BYTES * 4;
/** At most this much unfinalised audio is kept for sending again after a reconnect. */
const MAX_REPLAY_BYTES = SAMPLE_RATE * 2 * 30;
/** Languages offered to automatic identification when the session names none. */
export const IDENTIFY_OPTIONS = 'en-US,es-US';

const TRANSIENT = new Set([
  'InternalFailureException',
  'ServiceUnavailableException',
  'LimitExceededException',
  'ThrottlingException',
  'TimeoutError',
  'RequestTimeout',
]);
const TRANSIENT_CODES = /ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|ERR_HTTP2|NGHTTP2|socket hang up|GOAWAY/i;

function toProviderError(id: string, err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = err as { name?: string; message?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  const name = e.name ?? 'Error';
  const status = e.$metadata?.httpStatusCode;
  const retryable =
    TRANSIENT.has(name) ||
    (status !== undefined && status >= 500) ||
    TRANSIENT_CODES.test(`${e.code ?? ''} ${e.message ?? ''}`);
  return new ProviderError(id, `${name}: ${e.message ?? 'transcription failed'}`, retryable);
}

function requestFor(opts: SttOptions, audio: AsyncIterable<AudioStream>): StartStreamTranscriptionCommandInput {
  const input: StartStreamTranscriptionCommandInput = {
    MediaEncoding: 'pcm',
    MediaSampleRateHertz: opts.sampleRate,
    AudioStream: audio,
  };
  const code = opts.language ? languageWithRegion(opts.language) : undefined;
  if (code) input.LanguageCode = code as LanguageCode;
  else {
    input.IdentifyLanguage = true;
    input.LanguageOptions = IDENTIFY_OPTIONS;
  }
  return input;
}

export function createAwsTranscribe(log: Logger, options: AwsTranscribeOptions = {}): SpeechToText {
  const client = options.client ?? new TranscribeStreamingClient({});
  const maxStreamBytes = Math.floor((options.maxStreamSeconds ?? 4 * 3600 - 120) * SAMPLE_RATE) * 2;
  const maxReconnects = options.maxReconnects ?? 3;
  const retryDelayMs = options.retryDelayMs ?? 500;
  const id = 'aws:transcribe-streaming';

  return {
    id,
    sampleRate: SAMPLE_RATE,
    wantsSegments: false,
    transcribe(audio$: Observable<Int16Array>, opts: SttOptions): Observable<SttResult> {
      return new Observable<SttResult>((out) => {
        const queue = new AudioQueue();
        const abort = new AbortController();
        let stopped = false;

        interface StreamState {
          /** The stream took its whole allowance of audio. */
          full: boolean;
          /** The stream took the last of the audio. */
          drained: boolean;
          /** Bytes sent on this stream. */
          sent: number;
          /** Audio sent and not yet finalised by the service: stream byte offset → chunk. */
          unconfirmed: Array<{ at: number; chunk: Uint8Array }>;
        }

        /** This stream's share of the audio: until the audio ends or the stream is full. */
        async function* audioFor(stream: StreamState): AsyncGenerator<AudioStream> {
          while (stream.sent < maxStreamBytes) {
            const chunk = await queue.take(CHUNK_BYTES, Math.min(MAX_CHUNK_BYTES, maxStreamBytes - stream.sent));
            if (!chunk) {
              stream.drained = queue.done;
              return;
            }
            stream.unconfirmed.push({ at: stream.sent, chunk });
            stream.sent += chunk.length;
            while (stream.unconfirmed.length > 1 && stream.sent - stream.unconfirmed[0]!.at > MAX_REPLAY_BYTES) {
              stream.unconfirmed.shift();
            }
            yield { AudioEvent: { AudioChunk: chunk } };
          }
          stream.full = true;
        }

        /** Forgets audio the service has finalised up to `endSeconds` of stream time. */
        function confirm(stream: StreamState, endSeconds: number): void {
          const upTo = Math.floor(endSeconds * SAMPLE_RATE) * 2;
          while (stream.unconfirmed.length && stream.unconfirmed[0]!.at + stream.unconfirmed[0]!.chunk.length <= upTo) {
            stream.unconfirmed.shift();
          }
          const head = stream.unconfirmed[0];
          if (head && head.at < upTo) {
            stream.unconfirmed[0] = { at: upTo, chunk: head.chunk.subarray(upTo - head.at) };
          }
        }

        async function run(): Promise<void> {
          let failures = 0;
          let streams = 0;
          while (!stopped) {
            streams += 1;
            const stream: StreamState = { full: false, drained: false, sent: 0, unconfirmed: [] };
            try {
              const response = await client.send(
                new StartStreamTranscriptionCommand(requestFor(opts, audioFor(stream))),
                {
                  abortSignal: abort.signal,
                },
              );
              for await (const event of response.TranscriptResultStream ?? ([] as TranscriptResultStream[])) {
                if (stopped) return;
                if (!event.TranscriptEvent) {
                  const [name, detail] = Object.entries(event).find(([, v]) => v !== undefined) ?? ['UnknownEvent', {}];
                  throw Object.assign(new Error((detail as { Message?: string }).Message ?? name), { name });
                }
                for (const result of event.TranscriptEvent.Transcript?.Results ?? []) {
                  const text = result.Alternatives?.[0]?.Transcript?.trim();
                  if (result.IsPartial !== true && result.EndTime !== undefined) confirm(stream, result.EndTime);
                  if (!text) continue;
                  failures = 0;
                  out.next({ text, final: result.IsPartial !== true });
                }
              }
              if (stream.drained) break;
              // A dropped connection can look like a clean end: the audio was not all taken.
              if (!stream.full)
                throw Object.assign(new Error('the service ended the stream early'), {
                  name: 'ServiceUnavailableException',
                });
              log.debug({ stt: id, streams }, 'transcribe: stream full, continuing on a new stream');
            } catch (err) {
              if (stopped) return;
              queue.release();
              queue.requeue(stream.unconfirmed.map((u) => u.chunk));
              const pe = toProviderError(id, err);
              failures += 1;
              if (!pe.retryable || failures > maxReconnects) throw pe;
              log.warn({ stt: id, err: pe.message, attempt: failures }, 'transcribe: stream failed, reconnecting');
              await new Promise((r) => setTimeout(r, retryDelayMs * failures));
            }
          }
        }

        const sub = audio$.subscribe({
          next: (pcm) => queue.push(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength)),
          error: (e: unknown) => {
            stopped = true;
            abort.abort();
            out.error(e);
          },
          complete: () => queue.end(),
        });
        run().then(
          () => {
            if (!stopped) out.complete();
          },
          (err: unknown) => {
            if (!stopped) out.error(toProviderError(id, err));
          },
        );
        return () => {
          stopped = true;
          sub.unsubscribe();
          queue.end();
          queue.release();
          abort.abort();
        };
      });
    },
  };
}
