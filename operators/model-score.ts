import {
  connect,
  defer,
  endWith,
  exhaustMap,
  filter,
  finalize,
  from,
  ignoreElements,
  interval,
  map,
  merge,
  of,
  catchError,
  takeUntil,
  tap,
  type ObservableInput,
  type OperatorFunction,
  type SchedulerLike,
} from 'rxjs';
import type { Utterance } from '../src/domain/frames.js';
import { MODEL_EVERY_MS, MODEL_MIN_NEW_CHARS } from '../src/domain/limits.js';
import type { Assessment } from '../src/domain/verdict.js';
import type { ModelInput } from '../src/providers/llm/types.js';

export interface ModelScoreDeps {
  /** The model call; the signal aborts it when the session ends first. */
  score: (input: ModelInput, signal: AbortSignal) => ObservableInput<Assessment>;
  scheduler: SchedulerLike;
  product: ModelInput['product'];
  language?: string;
  everyMs?: number;
  minNewChars?: number;
}

export type ModelScoreResult =
  | { kind: 'assessment'; assessment: Assessment }
  /** A provider refusal: reported as `session.error`; the session goes on. */
  | { kind: 'error'; error: string; text: string };

/**
 * Model scoring on a cadence: every 30 s, and only when the caller said at least 120 new characters
 * since the last model call. One call at a time (a tick during a call is skipped); the pending call
 * is aborted when the utterances end. Input: every utterance of the call (the model sees context),
 * of which only the caller's count toward the 120 characters.
 */
export function modelScore(deps: ModelScoreDeps): OperatorFunction<Utterance, ModelScoreResult> {
  const everyMs = deps.everyMs ?? MODEL_EVERY_MS;
  const minNewChars = deps.minNewChars ?? MODEL_MIN_NEW_CHARS;
  return (utterances$) =>
    utterances$.pipe(
      connect((shared$) => {
        const lines: Utterance[] = [];
        const callerParts: string[] = [];
        let newChars = 0;
        const done$ = shared$.pipe(ignoreElements(), endWith(true));
        const record$ = shared$.pipe(
          tap((u) => {
            lines.push(u);
            if (u.role === 'caller') {
              callerParts.push(u.text);
              newChars += u.text.length;
            }
          }),
          ignoreElements(),
        );
        const calls$ = interval(everyMs, deps.scheduler).pipe(
          filter(() => newChars >= minNewChars),
          exhaustMap(() => {
            newChars = 0;
            const input: ModelInput = {
              utterances: lines.slice(),
              callerText: callerParts.join('\n'),
              product: deps.product,
            };
            if (deps.language) input.language = deps.language;
            return call(deps, input);
          }),
          takeUntil(done$),
        );
        return merge(record$, calls$);
      }),
    );
}

function call(deps: ModelScoreDeps, input: ModelInput) {
  return defer(() => {
    const ac = new AbortController();
    return from(deps.score(input, ac.signal)).pipe(
      map((assessment): ModelScoreResult => ({ kind: 'assessment', assessment })),
      catchError((e: unknown) =>
        of<ModelScoreResult>({
          kind: 'error',
          error: e instanceof Error ? e.message : String(e),
          text: 'live model scoring failed; rule scoring continues',
        }),
      ),
      finalize(() => ac.abort()),
    );
  });
}
