/*
 * Provider calls as metrics (`voice_provider_calls_total`, `voice_provider_latency_seconds`), added once at
 * boot around the providers so no caller has to remember them. Live model scoring is timed where it is
 * called (pipelines/live/scoring.ts, op `score_live`); here: the final analysis (`analyze`), speech
 * recognition (`transcribe`: latency from the end of the audio to the last result, which is what a
 * caller waits for) and speech synthesis (`synthesize`).
 */
import { finalize, Observable } from 'rxjs';
import type { ModelProvider } from '../providers/llm/types.js';
import type { SpeechToText } from '../providers/stt/types.js';
import type { TextToSpeech } from '../providers/tts/types.js';
import type { Services } from '../services.js';
import { providerHealth } from '../health/provider-health.js';
import { metrics } from './metrics.js';

/** Counts one provider call; also for calls made where the wrappers below cannot see them (analysis workers). */
export function recordProviderCall(provider: string, op: string, ok: boolean, ms: number): void {
  metrics.providerCalls.inc({ provider, op, outcome: ok ? 'ok' : 'error' });
  metrics.providerLatency.observe({ provider, op }, ms);
  providerHealth.record(provider, ok, Date.now());
}

async function timed<T>(provider: string, op: string, work: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    const out = await work();
    recordProviderCall(provider, op, true, performance.now() - t0);
    return out;
  } catch (e) {
    recordProviderCall(provider, op, false, performance.now() - t0);
    throw e;
  }
}

/**
 * The object with one method replaced; every other member is the provider's own, bound to it, so
 * identity-sensitive code (private fields, `this`) keeps working.
 */
function override<T extends object, K extends keyof T>(target: T, name: K, replacement: T[K]): T {
  return new Proxy(target, {
    get(t, p) {
      if (p === name) return replacement;
      const v: unknown = Reflect.get(t, p, t);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
  });
}

export function instrumentLlm(llm: ModelProvider): ModelProvider {
  return override(llm, 'analyze', (input, signal) => timed(llm.id, 'analyze', () => llm.analyze(input, signal)));
}

export function instrumentTts(tts: TextToSpeech): TextToSpeech {
  return override(tts, 'synthesize', (text, voice, signal, options) =>
    timed(tts.id, 'synthesize', () => tts.synthesize(text, voice, signal, options)),
  );
}

export function instrumentStt(stt: SpeechToText): SpeechToText {
  return override(stt, 'transcribe', (audio, opts) => {
    return new Observable((out) => {
      let audioEnded = performance.now();
      // `finalize` adds no step per chunk (it hands the chunks' subscriber straight to the source): this
      // wraps every 20 ms frame of every call, so a pass-through observer here would cost on each of them.
      const watched = audio.pipe(finalize(() => (audioEnded = performance.now())));
      return stt.transcribe(watched, opts).subscribe({
        next: (r) => out.next(r),
        error: (e: unknown) => {
          recordProviderCall(stt.id, 'transcribe', false, performance.now() - audioEnded);
          out.error(e);
        },
        complete: () => {
          recordProviderCall(stt.id, 'transcribe', true, performance.now() - audioEnded);
          out.complete();
        },
      });
    });
  });
}

/** The services with their providers instrumented. */
export function instrumentProviders(s: Services): Services {
  return {
    ...s,
    llm: s.llm ? instrumentLlm(s.llm) : null,
    stt: s.stt ? instrumentStt(s.stt) : null,
    tts: s.tts ? instrumentTts(s.tts) : null,
  };
}
