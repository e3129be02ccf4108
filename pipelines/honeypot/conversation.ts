/*
 * The persona's side of a honeypot call, as one observable: it greets, answers each caller turn,
 * prompts a silent caller and hangs up after three unanswered prompts, speaks through the TTS port
 * in the client's audio format paced in real time, and yields to the caller when they talk over it.
 *
 *   heard (caller lines) ─► rules (intel, tactics) ─┐
 *   frames (text, audio level) ─► turn timing ──────┴─► dialogue ─► say ─┐
 *   silence clock ─► prompt / goodbye ──────────────────────────────────┤
 *                                                                        ▼
 *                                   speak (TTS) ─► encode ─► pace ─► audio, mark ─► outbound
 *   caller activity ─► barge-in ─► clear ─────────────────────────────────┘
 *
 * Emits the persona's transcript lines as they were heard: a line once its audio has been sent whole, or
 * the part sent before the caller cut it off (barge-in, the end of the call); audio and control go to
 * `deps.outbound`, the reasons to end (greeting refused, hang-up) to `deps.end`.
 */
import { concatMap, defer, EMPTY, Observable, Subject, type SchedulerLike } from 'rxjs';
import type { AudioFormat, EndReason, Frame, OutboundFrame, Utterance } from '../../src/domain/frames.js';
import type { Assessment } from '../../src/domain/verdict.js';
import type { TextToSpeech } from '../../src/providers/tts/types.js';
import { voiceFor } from '../../src/providers/tts/index.js';
import { createRuleScorer } from '../../src/rules/index.js';
import { VOICE_RMS_THRESHOLD } from '../../src/domain/limits.js';
import { bargeIn, type CallerActivity } from '../../operators/barge-in.js';
import { paceAudio, type Clip } from '../../operators/pace-audio.js';
import { replyTiming, type TurnSignal } from '../../operators/reply-timing.js';
import { silencePrompts, type SilenceSignal } from '../../operators/silence-prompt.js';
import { speak, type SpeechRequest } from '../../operators/speak.js';
import { pendingCallerText, type DialogueEngine, type DialogueState } from '../../src/honeypot/dialogue/types.js';
import { goodbye, greeting, silencePrompt } from '../../src/honeypot/lines.js';
import type { Rng } from '../../src/honeypot/rng.js';
import type { HoneypotTiming } from './timing.js';
import type { Persona } from '../../src/honeypot/types.js';
import { playedText } from '../../src/honeypot/played.js';
import { frameBytes, frameLevel, toClientAudio } from './voice-format.js';

type SayKind = 'greeting' | 'reply' | 'prompt' | 'goodbye';

export interface ConversationDeps {
  persona: Persona;
  engine: DialogueEngine;
  /** Used for a turn when `engine` refuses (a model outage must not silence the persona). */
  fallback: DialogueEngine;
  /** null: text-only persona (its lines go out as `transcript.line`, no audio). */
  tts: TextToSpeech | null;
  format: AudioFormat;
  scheduler: SchedulerLike;
  rng: Rng;
  timing: HoneypotTiming;
  report: (error: string, text: string) => void;
  outbound: (frame: OutboundFrame) => void;
  end: (reason: EndReason) => void;
}

export function conversation(
  deps: ConversationDeps,
  heard$: Observable<Utterance>,
  frames$: Observable<Frame>,
): Observable<Utterance> {
  return new Observable<Utterance>((sub) => {
    const { persona, scheduler, timing, tts } = deps;
    const lines: Utterance[] = [];
    const rules = createRuleScorer();
    let assessment: Assessment | null = null;
    let counter = 0;
    let answeredUpTo = 0;
    let queued = 0; // clips queued or playing
    let hangingUp = false;
    let finished = false;
    const aborts = new Set<AbortController>();

    const say$ = new Subject<SpeechRequest & { kind: SayKind }>();
    const clips$ = new Subject<Clip>();
    const interrupt$ = new Subject<void>();
    const silence$ = new Subject<SilenceSignal>();
    const turn$ = new Subject<TurnSignal>();
    const activity$ = new Subject<CallerActivity>();
    const kinds = new Map<string, SayKind>();
    /** Clips handed to playback, in order; the first is the one playing. */
    const playing: Array<{ text: string; bytes: number; sent: number }> = [];

    /** The dialogue's memory takes the line when it is decided; the transcript when it can be heard. */
    const personaLine = (text: string): Utterance => ({
      role: 'persona',
      speaker: persona.name,
      text,
      at: scheduler.now(),
    });
    /** The line of the clip being cut off, as far as it was sent; the clips after it were never heard. */
    const cutPlayback = (): void => {
      const cut = playing[0];
      playing.length = 0;
      if (!cut || cut.sent === 0) return;
      const heard = playedText(cut.text, cut.sent, cut.bytes);
      if (heard) sub.next(personaLine(heard));
    };
    const hangup = (): void => {
      if (finished) return;
      finished = true;
      deps.outbound({ kind: 'hangup' });
      deps.end('hangup');
    };
    const say = (text: string, kind: SayKind): void => {
      if (finished) return;
      if (kind === 'goodbye') hangingUp = true;
      lines.push(personaLine(text));
      if (!tts) {
        sub.next(personaLine(text));
        if (kind === 'goodbye') return hangup();
        silence$.next('persona_start');
        silence$.next('persona_end');
        return;
      }
      const name = `${kind}-${++counter}`;
      kinds.set(name, kind);
      say$.next({ name, text, kind });
    };

    const subs = [
      // Speech: synthesis in order; the line joins the transcript once it can be heard.
      say$
        .pipe(
          speak((text, signal) =>
            tts!.synthesize(text, voiceFor(tts!, persona), signal, {
              rate: persona.tts.rate,
              pitch: persona.tts.pitch,
            }),
          ),
        )
        .subscribe((r) => {
          const kind = kinds.get(r.request.name) ?? 'reply';
          if (!r.ok) {
            kinds.delete(r.request.name);
            deps.report(r.error, `speech synthesis failed for the persona's ${kind}`);
            if (kind === 'greeting') {
              finished = true;
              deps.end('error');
            } else if (kind === 'goodbye') {
              hangup();
            } else if (queued === 0) {
              silence$.next('persona_end');
            }
            return;
          }
          if (queued++ === 0) silence$.next('persona_start');
          const data = toClientAudio(r.audio, deps.format);
          if (data.length === 0) sub.next(personaLine(r.request.text));
          else playing.push({ text: r.request.text, bytes: data.length, sent: 0 });
          clips$.next({ name: r.request.name, data });
        }),

      // Playback in real time; barge-in clears it.
      clips$.pipe(paceAudio({ scheduler, frameBytes: frameBytes(deps.format), interrupt$ })).subscribe((f) => {
        if (finished) return;
        deps.outbound(f);
        if (f.kind === 'audio' && playing[0]) playing[0].sent += f.data.length;
        if (f.kind === 'mark') {
          const whole = playing.shift();
          if (whole) sub.next(personaLine(whole.text));
          const kind = kinds.get(f.name);
          kinds.delete(f.name);
          queued = Math.max(0, queued - 1);
          if (kind === 'goodbye') return hangup();
          if (queued === 0) silence$.next('persona_end');
        } else if (f.kind === 'clear') {
          cutPlayback();
          queued = 0;
          kinds.clear();
          if (hangingUp) return hangup();
          silence$.next('persona_end');
        }
      }),

      // The caller talking over the persona.
      activity$.pipe(bargeIn({ threshold: VOICE_RMS_THRESHOLD })).subscribe(() => {
        interrupt$.next();
        silence$.next('caller');
      }),

      // Silence: prompt, prompt, prompt, goodbye.
      silence$
        .pipe(silencePrompts({ scheduler, silenceMs: timing.silenceMs, maxPrompts: timing.maxPrompts }))
        .subscribe((a) => {
          if (a.kind === 'prompt') say(silencePrompt(a.n, deps.rng), 'prompt');
          else say(goodbye(deps.rng), 'goodbye');
        }),

      // Answers: when the caller's turn is over, one at a time.
      turn$
        .pipe(
          replyTiming({ scheduler, pauseMs: timing.replyPauseMs }),
          concatMap(() => (hangingUp || finished ? EMPTY : defer(() => answer()))),
        )
        .subscribe((text) => {
          if (text && !hangingUp) say(text, 'reply');
        }),

      heard$.subscribe((u) => {
        if (u.role === 'persona') return;
        lines.push(u);
        if (u.role !== 'caller') return;
        assessment = rules.push(u.text);
        silence$.next('caller');
        turn$.next({ kind: 'line' });
      }),

      frames$.subscribe({
        next: (f) => {
          if (f.kind === 'text' && f.track === 'inbound' && f.text.trim() !== '') {
            activity$.next({ kind: 'text' });
            if (!f.final) turn$.next({ kind: 'activity' });
            else if (f.endOfTurn) turn$.next({ kind: 'end_of_turn' });
          } else if (f.kind === 'audio' && f.track === 'inbound') {
            const level = frameLevel(f.data, deps.format);
            activity$.next({ kind: 'voice', rms: level.rms, ms: level.ms });
            if (level.rms >= VOICE_RMS_THRESHOLD) {
              turn$.next({ kind: 'activity' });
              silence$.next('caller');
            }
          } else if (f.kind === 'dtmf') {
            silence$.next('caller');
          }
        },
        complete: () => {
          // The call ended mid-line: the transcript keeps what went out of it.
          cutPlayback();
          sub.complete();
        },
        error: (e) => sub.error(e),
      }),
    ];

    async function answer(): Promise<string | null> {
      // Only caller words said since the last answer: two quick turns get one reply, not two.
      if (!lines.slice(answeredUpTo).some((l) => l.role === 'caller')) return null;
      answeredUpTo = lines.length;
      if (!pendingCallerText(lines)) return null;
      const state: DialogueState = {
        persona,
        lines: [...lines],
        intel: rules.intel(),
        tactics: assessment?.tactics ?? [],
        category: assessment?.category ?? 'none',
        score: assessment?.score ?? 0,
      };
      const ac = new AbortController();
      aborts.add(ac);
      try {
        return await deps.engine.reply(state, ac.signal);
      } catch (e) {
        if (ac.signal.aborted) return null;
        deps.report(
          e instanceof Error ? e.message : String(e),
          'the persona reply failed; a scripted line was used instead',
        );
        return deps.fallback === deps.engine ? null : await deps.fallback.reply(state, ac.signal).catch(() => null);
      } finally {
        aborts.delete(ac);
      }
    }

    say(greeting(persona), 'greeting');

    return () => {
      finished = true;
      for (const ac of aborts) ac.abort();
      for (const s of subs) s.unsubscribe();
    };
  });
}
