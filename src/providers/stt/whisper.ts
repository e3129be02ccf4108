/*
 * An OpenAI-style transcription server (whisper.cpp server, faster-whisper, the OpenAI API): one
 * multipart POST of a WAV file per utterance to `{base}/audio/transcriptions`. The segmenter cuts the
 * utterances, so this provider asks for them (wantsSegments).
 */
import { concatMap, defer, filter, map, Observable } from 'rxjs';
import { writeWav } from '../../audio/wav.js';
import { ProviderError } from '../errors.js';
import { primaryLanguage } from './language.js';
import type { SpeechToText, SttOptions, SttResult } from './types.js';

export interface WhisperOptions {
  /** Base URL ending in the API root, e.g. `http://host:8000/v1`. */
  url: string;
  model?: string;
  apiKey?: string;
  /** Per request. Default 30 s. */
  timeoutMs?: number;
  /** Extra tries for a 5xx answer or a network failure. Default 1. */
  retries?: number;
}

export function createWhisper(options: WhisperOptions): SpeechToText {
  const model = options.model ?? 'whisper-1';
  const endpoint = `${options.url.replace(/\/+$/, '')}/audio/transcriptions`;
  const id = `whisper:${model}`;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const retries = options.retries ?? 1;

  async function post(utterance: Int16Array, opts: SttOptions, signal: AbortSignal): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([writeWav(utterance, opts.sampleRate)], { type: 'audio/wav' }), 'utterance.wav');
    form.append('model', model);
    const language = opts.language ? primaryLanguage(opts.language) : undefined;
    if (language) form.append('language', language);
    form.append('response_format', 'json');
    const headers: Record<string, string> = {};
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

    for (let attempt = 0; ; attempt++) {
      let failure: ProviderError;
      try {
        const res = await fetch(endpoint, {
          method: 'POST',
          body: form,
          headers,
          signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
        });
        const body = await res.text();
        if (res.ok) {
          let parsed: unknown;
          try {
            parsed = JSON.parse(body);
          } catch {
            throw new ProviderError(id, 'the transcription server answered with something other than JSON');
          }
          const text = (parsed as { text?: unknown }).text;
          if (typeof text !== 'string') throw new ProviderError(id, 'the transcription server answered without "text"');
          return text;
        }
        failure = new ProviderError(
          id,
          `HTTP ${res.status}: ${body.slice(0, 200)}`,
          res.status >= 500 || res.status === 429,
        );
      } catch (err) {
        if (err instanceof ProviderError) throw err;
        if (signal.aborted) throw err;
        failure = new ProviderError(id, `transcription server unreachable: ${(err as Error).message}`, true);
      }
      if (!failure.retryable || attempt >= retries) throw failure;
    }
  }

  return {
    id,
    sampleRate: 16_000,
    wantsSegments: true,
    transcribe(audio$: Observable<Int16Array>, opts: SttOptions): Observable<SttResult> {
      return audio$.pipe(
        filter((utterance) => utterance.length > 0),
        concatMap((utterance) =>
          defer(() => {
            const abort = new AbortController();
            return new Observable<string>((out) => {
              post(utterance, opts, abort.signal).then(
                (text) => {
                  out.next(text);
                  out.complete();
                },
                (err: unknown) => out.error(err),
              );
              return () => abort.abort();
            });
          }),
        ),
        map((text) => text.trim()),
        filter((text) => text !== ''),
        map((text): SttResult => ({ text, final: true })),
      );
    },
  };
}
