import { finalize, Subject } from 'rxjs';
import type { EndReason, OutboundFrame } from '../../src/domain/frames.js';
import { conversation } from './conversation.js';
import { createGenerativeDialogue } from '../../src/honeypot/dialogue/generative.js';
import { createLennyDialogue } from '../../src/honeypot/dialogue/lenny.js';
import { createScriptedDialogue } from '../../src/honeypot/dialogue/scripted.js';
import type { DialogueEngine } from '../../src/honeypot/dialogue/types.js';
import { choosePersona, personaInfo } from '../../src/honeypot/personas.js';
import { seededRng, type Rng } from '../../src/honeypot/rng.js';
import { honeypotTiming, type HoneypotTiming } from './timing.js';
import type { Persona } from '../../src/honeypot/types.js';
import { LIVE_PROFILES } from '../live/profile.js';
import { liveSession } from '../live/session.js';
import type { PortsOf } from '../ports.js';
import type { Pipeline } from '../types.js';

export interface HoneypotOptions {
  /** Replaces the dialogue engine (tests, simulation); default: generative when a chat model is configured, else scripted. */
  engine?: (persona: Persona, rng: Rng) => DialogueEngine;
  timing?: HoneypotTiming;
  /** Random source for the persona and its lines; default: seeded from the session id. */
  rng?: (sessionId: string) => Rng;
}

/**
 * The honeypot: the live session (transcript, scoring, meter at 8 credits a minute, 15-minute limit,
 * filing at 0.8 by default) with a persona answering. The persona's lines join the one transcript
 * under its name; its audio, `clear`, `mark` and `hangup` go out on `outbound$`.
 */
export function createHoneypotPipeline(opts: HoneypotOptions = {}): Pipeline {
  return (ctx) => {
    const rng = (opts.rng ?? seedFromId)(ctx.sessionId);
    const persona =
      choosePersona(ctx.ports.personas, ctx.spec.options.persona ?? ctx.ports.tuning?.persona, rng) ??
      // The socket refuses unknown ids at start; any other entry point gets a random persona.
      choosePersona(ctx.ports.personas, undefined, rng)!;
    const scripted = createScriptedDialogue({ rng });
    const engine = opts.engine ? opts.engine(persona, rng) : defaultEngine(ctx.ports, scripted);
    const outbound = new Subject<OutboundFrame>();
    const end = new Subject<EndReason>();

    const events$ = liveSession(ctx, LIVE_PROFILES.honeypot, {
      persona: personaInfo(persona),
      end$: end,
      extraLines: (heard$, frames$, report) =>
        conversation(
          {
            persona,
            engine,
            fallback: scripted,
            tts: ctx.ports.tts,
            format: ctx.spec.start.audio,
            scheduler: ctx.scheduler,
            rng,
            timing: opts.timing ?? honeypotTiming(),
            report,
            outbound: (f) => outbound.next(f),
            end: (reason) => end.next(reason),
          },
          heard$,
          frames$,
        ),
    });
    return {
      events$: events$.pipe(finalize(() => outbound.complete())),
      outbound$: outbound.asObservable(),
    };
  };
}

export const honeypotPipeline: Pipeline = createHoneypotPipeline();

function defaultEngine(ports: PortsOf<'tuning' | 'chat'>, scripted: DialogueEngine): DialogueEngine {
  const chosen = ports.tuning?.honeypotEngine ?? 'auto';
  if (chosen === 'lenny') return createLennyDialogue();
  if (chosen === 'scripted') return scripted;
  const chat = ports.chat();
  return chat ? createGenerativeDialogue(chat) : scripted;
}

/** A deterministic random source per session id (the id itself is random in production). */
function seedFromId(id: string): Rng {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return seededRng(h >>> 0);
}
