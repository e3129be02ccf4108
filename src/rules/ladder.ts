/*
 * The ladder a call climbs: what the caller asks of the callee, in the context of what they claim and of
 * the call's shape, caps or floors the calibrated evidence score. No single phrase decides a call.
 */
import type { Tactic } from '../domain/tactics.js';
import { assuranceBroken } from './assurance.js';
import type { Hit } from './evidence.js';
import type { CallShape } from './shape.js';

/**
 * What a scam needs from the callee: a payment it cannot take back, a code, credentials, remote
 * control, secrecy, an offer to sign up for, or (in a recorded call) a key press or call back.
 */
const REQUEST_TACTICS: ReadonlySet<Tactic> = new Set([
  'untraceable_payment',
  'otp_request',
  'pii_harvest',
  'remote_access',
  'secrecy',
  'callback_pressure',
]);
const REQUEST_IDS: ReadonlySet<string> = new Set([
  'pay_fee_first',
  'check_forwarding',
  // A recorded call says everything at once, and its request is to be called back or answered.
  'unsolicited_robocall',
  'student_loan_relief',
]);
/** An offer (a pitch for relief, a warranty, a loan) is itself the request to sign up. */
const isOffer = (id: string) => id.endsWith('_pitch') || id.endsWith('_offer');
/** A problem the caller says the listener has: what an impersonation claim is made for. */
const PROBLEM_IDS: ReadonlySet<string> = new Set([
  'account_alert',
  'tech_problem',
  'refund',
  'package_problem',
  'family_trouble',
  // Threats no real agency phones: an arrest, a warrant, a suspended Social Security number.
  'arrest_threat',
  'ssn_suspended',
]);

/** An account notice is a problem only when it alarms ("a purchase on your card" alone is a statement). */
const ALARM =
  /\b(?:suspicious|unusual|unauthori[sz]ed|fraud\w*|illegal|criminal|hack\w*|compromised|breached|stolen|hijacked|infected|locked|blocked|suspended|frozen|flagged|someone)\b/i;

/**
 * A threat without any request, however strong the claim, has not yet asked for anything:
 * `likely_scam` at most. The ask is what makes it `scam`, so a live call climbs the ladder as the
 * script does (claim and problem, pressure, the request) instead of jumping once.
 */
export const NO_REQUEST_CEILING = 0.8;
/**
 * Neither a request nor a threat: a claim and a problem alone ("fraud department", "a suspicious
 * charge") is how a real bank's fraud alert opens too, and a phrase of pressure ("don't hang up") is
 * how family talk goes. `suspicious` at most, and below the 0.5 a rules-only live verdict needs to be
 * sent, so such a line raises no live event.
 */
export const NO_ASK_CEILING = 0.45;
/**
 * A claim of authority (an agency, a bank, a known company, a grandchild) together with a problem of
 * the listener's (a charge, an infection, a warrant, an arrest) and a threat or a request is an
 * imposter script: `likely_scam` at least, unless the caller also gave an honest institution's
 * assurance that no later request broke.
 */
export const CLAIM_AND_PROBLEM_FLOOR = 0.62;
/**
 * An unsolicited pre-recorded pitch (an offer and a key to press or a number to call back) is at
 * least `suspicious`, with the offer's subject. Warranty and health-plan press-1 calls are scams in
 * the public robocall data (the FTC's): `scam`.
 */
export const PITCH_FLOOR = 0.45;
export const SCAM_PITCH_FLOOR = 0.9;
const SCAM_PITCHES: ReadonlySet<string> = new Set(['warranty_pitch', 'medicare_pitch']);
const PROMPTS: ReadonlySet<string> = new Set(['press_key', 'call_back', 'unsolicited_robocall']);
/**
 * Someone telling of a scam call they got ("I got a call saying I won a car … that's a scam") quotes
 * its words without asking anything of the listener: at most `suspicious`.
 */
export const STORY_CEILING = 0.45;
/**
 * One kind of evidence alone (a single request, claim or prompt, however often repeated or however many
 * cues one sentence trips) is a phrase, not a script: a hotel confirming the card on file asks for card
 * digits, a lender for the last four of a social. `suspicious` at most.
 */
export const LONE_CUE_CEILING = 0.45;
/**
 * An honest institution's assurance ("we will never ask for your PIN") that nothing broke, with nothing
 * asked but a key press or a call back, is how a real bank's automated fraud alert goes: `suspicious`
 * at most. A scammer who copies it is caught by the request that breaks it (assurance.ts).
 */
export const ASSURED_PROMPT_CEILING = 0.45;

/**
 * A recorded call's prompts ask for nothing more in a conversation: there, "call me back at …" is how
 * honest people end a call, and a live scammer's request is a code, a payment or access, which still
 * counts. Not knowing the shape (no speaker labels) is scored as a recorded call, as the prompts always were.
 */
function asksOf(hits: readonly Hit[], shape: CallShape): readonly Hit[] {
  return shape === 'conversation' ? hits.filter((h) => !PROMPTS.has(h.cue.id)) : hits;
}

export function ladder(all: readonly Hit[], score: number, shape: CallShape): number {
  const hits = asksOf(all, shape);
  const has = (id: string) => hits.some((h) => h.cue.id === id);
  const asks = hits.filter(
    (h) =>
      h.cue.weight > 0 &&
      ((h.cue.tactic && REQUEST_TACTICS.has(h.cue.tactic)) || REQUEST_IDS.has(h.cue.id) || isOffer(h.cue.id)),
  );
  const requested = asks.length > 0;
  const threatened = hits.some((h) => h.cue.tactic === 'threat' && h.cue.weight > 0);
  const claim = hits.some((h) => h.cue.tactic === 'authority_impersonation' || h.cue.id === 'family_emergency');
  const trouble = hits.some((h) => PROBLEM_IDS.has(h.cue.id) && (h.cue.id !== 'account_alert' || ALARM.test(h.quote)));
  if (!requested) score = Math.min(score, threatened ? NO_REQUEST_CEILING : NO_ASK_CEILING);
  // A threat of losing a service is a problem too, but then it must come with a request: "your account
  // will be suspended unless you update your card in the app" is how real reminders read.
  const problem = trouble || threatened;
  const assured =
    hits.some((h) => h.cue.id === 'safety_disclaimer' || h.cue.id === 'collection_disclosure') &&
    !assuranceBroken(hits);
  if (claim && problem && (requested || (threatened && trouble)) && !assured)
    score = Math.max(score, CLAIM_AND_PROBLEM_FLOOR);
  const prompted = hits.some((h) => PROMPTS.has(h.cue.id));
  const pitch = hits.filter((h) => isOffer(h.cue.id) && h.cue.weight > 0);
  if (prompted && pitch.length && !assured) {
    score = Math.max(score, pitch.some((h) => SCAM_PITCHES.has(h.cue.id)) ? SCAM_PITCH_FLOOR : PITCH_FLOOR);
  }
  if (has('reported_call') && has('scam_talk')) score = Math.min(score, STORY_CEILING);
  const kinds = new Set(hits.filter((h) => h.cue.weight > 0).map((h) => h.cue.tactic ?? h.cue.id));
  // A request made after promising never to make it is two pieces of evidence: the ask and the broken word.
  if (assuranceBroken(hits)) kinds.add('broken_assurance');
  // Except a demand for gift cards, crypto or a wire: no honest caller makes it at all.
  if (kinds.size < 2 && !asks.some((h) => h.cue.tactic === 'untraceable_payment'))
    score = Math.min(score, LONE_CUE_CEILING);
  if (assured && asks.every((h) => PROMPTS.has(h.cue.id))) score = Math.min(score, ASSURED_PROMPT_CEILING);
  return score;
}
