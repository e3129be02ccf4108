/*
 * The embedded dialogue engine (no network). It follows the honeypot's strategy from the rule
 * engine's view of the call: react to what the caller pushes for without ever complying, ask for the
 * intel that is still missing (name, company, callback number, case number, payment rail, website,
 * program), read new intel back, and stall in the persona's own way. It varies its lines and never
 * reuses a phrase until many others were said.
 */
import type { Intel } from '../../domain/intel.js';
import { pick, type Rng } from '../rng.js';
import type { Persona } from '../types.js';
import { fieldsAskedIn } from './asked.js';
import { callerIntents, type CallerIntent } from './intents.js';
import { hasField, mayBeWhole, misheard } from './listening.js';
import {
  ASKS,
  KEEP_GOING,
  LINE_BROKE,
  REACTIONS,
  READBACKS,
  REPEAT_NAME,
  REPEAT_NUMBER,
  SPELL_NAME,
  STALLS,
  type AskField,
} from './phrases.js';
import { speakDigits, spellOut } from './spoken.js';
import { pendingCallerText, type DialogueEngine, type DialogueState } from './types.js';

export { misheard } from './listening.js';

export interface ScriptedOptions {
  rng: Rng;
  /** Phrases not reused until this many other phrases were said. */
  noRepeatWindow?: number;
  /** A field is given up on after this many asks. */
  maxAsksPerField?: number;
}

const AUTHORITY = new Set(['authority_impersonation', 'threat']);
const PAYMENT = new Set(['untraceable_payment']);
const REMOTE = new Set(['remote_access']);
/** Intents that are the form of an answer ("my name is", "are you there?"), not a push of their own. */
const ANSWERING = new Set<CallerIntent>(['identity', 'presence', 'confirm']);

export function createScriptedDialogue(opts: ScriptedOptions): DialogueEngine {
  const rng = opts.rng;
  const window = opts.noRepeatWindow ?? 40;
  const maxAsks = opts.maxAsksPerField ?? 2;
  const recent: string[] = []; // phrase templates, most recent last
  const asks = new Map<AskField, number>();
  const readBack = new Set<string>();
  const reacted = new Map<CallerIntent, number>();
  let lastField: AskField | undefined;
  /** The field asked for in the persona's last line, if any: the caller's next words answer it. */
  let askedLast: AskField | undefined;
  /** Fields asked again once because the answer came through garbled (each at most once). */
  const reasked = new Set<AskField>();

  const remember = (t: string): string => {
    const at = recent.indexOf(t);
    if (at >= 0) recent.splice(at, 1);
    recent.push(t);
    while (recent.length > window) recent.shift();
    return t;
  };
  /** A phrase not said recently, or undefined when all of them were (the part is then left out). */
  const fresh = (templates: readonly string[]): string | undefined => {
    const unused = templates.filter((t) => !recent.includes(t));
    return unused.length ? remember(pick(unused, rng)) : undefined;
  };
  /** A phrase not said recently, else the one said longest ago. */
  const choose = (templates: readonly string[]): string =>
    fresh(templates) ?? remember([...templates].sort((a, b) => recent.indexOf(a) - recent.indexOf(b))[0]!);

  /** Every question in the line spends the asked field's budget, whichever phrase asked it. */
  const counted = (line: string): string => {
    for (const f of fieldsAskedIn(line)) asks.set(f, (asks.get(f) ?? 0) + 1);
    return line;
  };

  const fill = (template: string, persona: Persona, extra: Record<string, string> = {}): string => {
    const d = persona.fakeDetails;
    const vars: Record<string, string> = {
      helper: persona.helper ?? 'my grandson',
      bank: d.bank ?? 'the savings bank',
      card_start: speakDigits((d.card_number ?? '4000 0000').split(/\s+/).slice(0, 2).join(' ')),
      ssn_start: speakDigits((d.ssn ?? '987-65').split('-').slice(0, 2).join(' ')),
      address: d.address ?? 'the house on the corner',
      birth: d.birth_date ?? 'a long time ago',
      code: speakDigits(String(100000 + Math.floor(rng() * 899999)).replace(/^(\d{3})/, '$1 ')),
      ...extra,
    };
    const out = template.replace(/\{(\w+)\}/g, (_, k: string) => vars[k] ?? '');
    return out.charAt(0).toUpperCase() + out.slice(1);
  };

  return {
    id: 'scripted',
    async reply(state: DialogueState, signal: AbortSignal): Promise<string> {
      if (signal.aborted) throw new Error('aborted');
      const { persona } = state;
      const said = new Set(state.lines.filter((l) => l.role === 'persona').map((l) => l.text));
      const caller = pendingCallerText(state.lines);
      const intents = callerIntents(caller);
      const intel = withSelfNamed(state);
      // An answer that pushed nothing and gave nothing new is one the line garbled, not a change of subject.
      // ("My name is …" with no name made out is the garbled answer itself, not a push.)
      const understood = intents.some((i) => !ANSWERING.has(i)) || freshIntel(intel, readBack) !== undefined;
      // A field already asked for as often as the caller will stand is not asked again, garbled or not.
      const spent = new Set([...reasked, ...[...asks].filter(([, n]) => n >= maxAsks).map(([f]) => f)]);
      const garbled = misheard(caller, intel, askedLast, spent, understood);
      askedLast = undefined;
      if (garbled) reasked.add(garbled.field);
      const askableField = (f: AskField) => !hasField(intel, f) && (asks.get(f) ?? 0) < maxAsks;

      for (let attempt = 0; attempt < 8; attempt++) {
        const parts: string[] = [];

        // 0. The caller answered, but the line garbled it: say what got through and ask again.
        if (garbled) {
          if (garbled.partial && garbled.field === 'case_numbers' && mayBeWhole(garbled.partial))
            parts.push(fill(choose(READBACKS), persona, { value: speakDigits(garbled.partial) }));
          else if (garbled.partial && (garbled.field === 'callback_numbers' || garbled.field === 'case_numbers'))
            parts.push(fill(choose(REPEAT_NUMBER[garbled.field]), persona, { value: speakDigits(garbled.partial) }));
          else if (garbled.field === 'names') parts.push(fill(choose(REPEAT_NAME), persona));
          else {
            // Only with a fresh excuse: the same "the line broke" twice in a few turns sounds like a recording.
            const excuse = fresh(LINE_BROKE);
            const t = excuse && fresh(ASKS[garbled.field]);
            if (excuse && t) parts.push(`${excuse} ${fill(t, persona)}`);
          }
          if (parts.length) askedLast = garbled.field;
        }
        const reasking = parts.length > 0;

        // 1. Read back one new piece of intel (numbers and names are worth hearing twice).
        const news = reasking ? undefined : freshIntel(state.intel, readBack);
        if (news) {
          readBack.add(news.value);
          if (news.field === 'names') {
            const last = news.value.split(/\s+/).at(-1) ?? news.value;
            parts.push(fill(choose(SPELL_NAME), persona, { name: news.value, spelled: spellOut(last) }));
          } else {
            const spoken = /\d/.test(news.value) ? speakDigits(news.value.replace(/^\+1/, '')) : news.value;
            parts.push(fill(choose(READBACKS), persona, { value: spoken }));
          }
        }

        // 2. Otherwise react to the strongest push, unless the persona already reacted to it a lot.
        for (const intent of parts.length ? [] : intents) {
          if ((reacted.get(intent) ?? 0) >= 3) continue;
          // Not a reaction whose question the caller already answered, or was asked as often as they stand.
          const t = fresh(REACTIONS[intent].filter((r) => fieldsAskedIn(r).every(askableField)));
          if (!t) continue;
          reacted.set(intent, (reacted.get(intent) ?? 0) + 1);
          parts.push(fill(t, persona));
          break;
        }

        // 3. Ask for what is still missing.
        // Asking again for what the caller already said annoys them; once is enough, twice at most.
        const fields = askable({ ...state, intel }, intents, asks, maxAsks, lastField);
        // The first field with a question not asked recently in those words.
        let asked = reasking;
        for (const field of asked ? [] : fields) {
          const t = fresh(ASKS[field]);
          if (!t) continue;
          lastField = field;
          askedLast = field;
          parts.push(fill(t, persona));
          asked = true;
          break;
        }
        if (!asked && parts.length < 2) {
          const t = fresh(KEEP_GOING);
          if (t) parts.push(fill(t, persona));
        }

        // 4. Stall now and then, in the persona's own way when it has one.
        if (parts.length < 2 || rng() < 0.3) {
          const own = persona.stalls ?? [];
          const pool = own.length && rng() < 0.6 ? own : STALLS;
          const t = fresh(pool) ?? fresh([...own, ...STALLS]);
          if (t) parts.unshift(fill(t, persona));
        }
        if (parts.length === 0) continue;

        const line = parts.slice(0, 3).join(' ');
        if (!said.has(line)) return counted(line);
      }
      // Every combination was said before: a stall and a nudge, never an exact repeat if avoidable.
      const stalls = [...STALLS, ...(persona.stalls ?? [])];
      for (let attempt = 0; attempt < 20; attempt++) {
        const line = `${fill(choose(stalls), persona)} ${fill(choose(KEEP_GOING), persona)}`;
        if (!said.has(line)) return counted(line);
      }
      return fill(choose(stalls), persona);
    },
  };
}

/** "My name is …" / "this is … from": a name the rule engine may not have filed yet. */
const SELF_NAMED =
  /\b(?:my name is|this is|i am|i'm)\s+((?:officer|agent|detective|mr\.?|mrs\.?|ms\.?)\s+)?([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\b/;

function withSelfNamed(state: DialogueState): Intel {
  if (state.intel.names?.length) return state.intel;
  for (const l of state.lines) {
    if (l.role !== 'caller') continue;
    const m = SELF_NAMED.exec(l.text);
    if (m && !/^(The|A|An|Your|Calling)$/.test(m[2]!.split(' ')[0]!)) return { ...state.intel, names: [m[2]!] };
  }
  return state.intel;
}

const READBACK_FIELDS = ['names', 'callback_numbers', 'case_numbers', 'urls', 'emails'] as const;

function freshIntel(
  intel: Intel,
  done: ReadonlySet<string>,
): { field: (typeof READBACK_FIELDS)[number]; value: string } | undefined {
  for (const field of READBACK_FIELDS) {
    const value = intel[field]?.find((v) => !done.has(v));
    if (value) return { field, value };
  }
  return undefined;
}

/** The missing intel field worth asking for now, given what the caller is pushing. */
export function nextField(
  state: Pick<DialogueState, 'intel' | 'tactics' | 'category'>,
  intents: readonly CallerIntent[],
  asks: ReadonlyMap<AskField, number>,
  maxAsks: number,
  lastField?: AskField,
): AskField | undefined {
  return askable(state, intents, asks, maxAsks, lastField)[0];
}

/** Missing intel fields, best first: what the caller pushes right now, then who they are and how to reach them. */
export function askable(
  state: Pick<DialogueState, 'intel' | 'tactics' | 'category'>,
  intents: readonly CallerIntent[],
  asks: ReadonlyMap<AskField, number>,
  maxAsks: number,
  lastField?: AskField,
): AskField[] {
  const tactics = new Set<string>(state.tactics);
  const cat = state.category;
  const order: AskField[] = ['names', 'organizations'];
  const payment = intents.includes('gift_card') || intents.includes('pay') || [...tactics].some((t) => PAYMENT.has(t));
  const remote =
    intents.includes('install') ||
    intents.includes('computer') ||
    [...tactics].some((t) => REMOTE.has(t)) ||
    cat === 'Computer & Technical Support';
  const authority = intents.includes('threat') || [...tactics].some((t) => AUTHORITY.has(t));
  // What the caller pushes right now comes first: that is when they are most willing to say it.
  if (payment) order.unshift('payment', 'amounts');
  if (remote) order.unshift('remote_tools', 'urls');
  order.push('callback_numbers');
  if (authority) order.push('case_numbers');
  order.push('emails');
  if (!remote) order.push('urls');
  if (!authority) order.push('case_numbers');
  order.push('addresses');
  const candidates = [...new Set(order)].filter((f) => !hasField(state.intel, f) && (asks.get(f) ?? 0) < maxAsks);
  // Not the same question twice in a row when there is another to ask.
  const notAgain = candidates.filter((f) => f !== lastField);
  return notAgain.length ? [...notAgain, ...candidates.filter((f) => f === lastField)] : candidates;
}
