/*
 * The rule engine: evidence from the caller's words → a calibrated scam probability, a complaint subject,
 * tactics, quoted signals, and the intel the caller gave away. Pure and fast: no I/O, no clocks.
 */
import type { Intel } from '../domain/intel.js';
import { mergeIntel } from '../domain/intel.js';
import type { Assessment } from '../domain/verdict.js';
import { assess } from './assess.js';
import { LIKELY_SCAM_AT, SCAM_AT } from '../domain/levels.js';
import { findEvidence, type Hit } from './evidence.js';
import { extractIntel } from './intel/extract.js';
import type { CallShape } from './shape.js';

export interface RuleScorer {
  /** Adds one final caller utterance and returns the assessment of everything the caller said so far. */
  push(text: string): Assessment;
  /** Intel extracted so far. */
  intel(): Intel;
}

/** Pitch lines worth keeping verbatim: the sentences that carried the strongest evidence. */
function scriptsOf(hits: readonly Hit[]): string[] {
  return hits
    .filter((h) => h.cue.weight >= 1)
    .sort((a, b) => b.cue.weight - a.cue.weight)
    .map((h) => h.quote)
    .filter((q, i, all) => all.indexOf(q) === i)
    .slice(0, 5);
}

/**
 * Incremental scorer for a live call. Each utterance is searched once, only for evidence not yet found,
 * so a push costs the length of the new text, not of the whole call. Intel is extracted from each
 * utterance only when asked for (the filter asks once, at the end): a verdict does not wait for it.
 */
export function createRuleScorer(): RuleScorer {
  const hits: Hit[] = [];
  const found = new Set<string>();
  const texts: string[] = [];
  let extracted = 0;
  let offset = 0;
  let intel: Intel = {};
  // The assessment is a function of the hits alone: an utterance with no new evidence (most of a long
  // call's) gets the last one again rather than the same sums done over.
  let last: Assessment | undefined;
  let shown = 0;
  return {
    push(text: string): Assessment {
      const before = hits.length;
      for (const h of findEvidence(text, found, offset)) {
        hits.push(h);
        found.add(h.cue.id);
      }
      texts.push(text);
      offset += text.length + 1;
      if (!last || hits.length !== before) {
        const next = assess(hits);
        // One utterance climbs from below likely_scam to likely_scam, not past it: the evidence that
        // an honest caller never reaches (a request, a threat) shows first as likely_scam, and the
        // call's next line shows it as scam. So a live scam sends the ladder the spec expects (two to
        // five verdicts), and the first line that asks for something is never the only warning.
        shown = Math.max(shown, climb(shown, next.score));
        last = shown < next.score ? { ...next, score: shown } : next;
        return last;
      }
      if (last.score < (shown = Math.max(shown, assessOf(hits, last)))) last = { ...last, score: shown };
      return last;
    },
    intel: () => {
      for (; extracted < texts.length; extracted++) intel = mergeIntel(intel, extractIntel(texts[extracted]!));
      return mergeIntel(intel, { scripts: scriptsOf(hits) });
    },
  };
}

/** The live score one utterance may show: at most likely_scam's top when the last shown was below likely_scam. */
export const LIVE_STEP_TOP = 0.84;
function climb(shown: number, score: number): number {
  return shown < LIKELY_SCAM_AT && score >= SCAM_AT ? LIVE_STEP_TOP : score;
}
/** The full score once a line has passed since the climb. */
function assessOf(hits: readonly Hit[], last: Assessment): number {
  return last.score >= LIVE_STEP_TOP ? assess(hits).score : last.score;
}

/**
 * Scores a whole caller text at once (scan, final analysis, evaluation), in the context of the call's
 * shape when it is known (`callShape` of the call's utterances; omitted, the call is scored as `unknown`).
 */
export function scoreText(text: string, shape?: CallShape): Assessment & { intel: Intel } {
  const hits = findEvidence(text);
  return { ...assess(hits, undefined, shape), intel: mergeIntel(extractIntel(text), { scripts: scriptsOf(hits) }) };
}

/** Scores without intel extraction: what the evaluation's throughput figure measures. */
export function scoreOnly(text: string, shape?: CallShape): Assessment {
  return assess(findEvidence(text), undefined, shape);
}

export { parseTranscript, callerText, callerLines, formatTranscript } from './transcript.js';
export { callShape, type CallShape } from './shape.js';

/** A short scam call touching every part of the engine (evidence, intel, spoken digits). */
export const WARM_UP_CALL: readonly string[] = [
  'hello this is officer miller from the social security administration your number has been suspended',
  'there is a warrant for your arrest unless you pay today with google play gift cards',
  'do not hang up and do not tell your bank, call me back at two zero two five five five zero one four seven',
  'visit secure-refund-center.com and read me the card number 4111 1111 1111 1111 and your one time code',
];

/**
 * Runs the engine over a canned call so its expressions are compiled and its hot paths optimised before
 * the first real call: otherwise the first verdicts after a deploy wait tens of milliseconds on the JIT.
 */
export function warmUpRules(rounds = 3): void {
  for (let r = 0; r < rounds; r++) {
    const scorer = createRuleScorer();
    for (const line of WARM_UP_CALL) scorer.push(line);
    scorer.intel();
    scoreText(WARM_UP_CALL.join(' '));
  }
}
