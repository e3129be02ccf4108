import { concatMap, Observable, type OperatorFunction } from 'rxjs';
import type { SpeechAudio } from '../src/providers/tts/types.js';

export interface SpeechRequest {
  /** Names the utterance (the `mark` sent after it plays). */
  name: string;
  text: string;
}

export type SpeechResult =
  { ok: true; request: SpeechRequest; audio: SpeechAudio } | { ok: false; request: SpeechRequest; error: string };

/**
 * Text → speech, one request at a time in order. A refusal becomes a failed result (the session decides
 * what it means), never an error of the stream. Unsubscribing aborts the synthesis in flight.
 */
export function speak(
  synthesize: (text: string, signal: AbortSignal) => Promise<SpeechAudio>,
): OperatorFunction<SpeechRequest, SpeechResult> {
  return concatMap(
    (request) =>
      new Observable<SpeechResult>((sub) => {
        const ac = new AbortController();
        synthesize(request.text, ac.signal).then(
          (audio) => {
            sub.next({ ok: true, request, audio });
            sub.complete();
          },
          (e: unknown) => {
            sub.next({ ok: false, request, error: e instanceof Error ? e.message : String(e) });
            sub.complete();
          },
        );
        return () => ac.abort();
      }),
  );
}
