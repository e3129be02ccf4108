import type { Category, VerdictCategory } from '../domain/categories.js';
import { SUSPICIOUS_AT } from '../domain/levels.js';
import type { Tactic } from '../domain/tactics.js';
import type { Assessment } from '../domain/verdict.js';
import { CALIBRATION } from './calibration.js';
import { TACTIC_DIVERSITY_BONUS } from './cues.js';
import type { Hit } from './evidence.js';
import type { CallShape } from './shape.js';

const GOV: Category = 'Calls pretending to be government, businesses, or family and friends';
const DEBT: Category = 'Reducing Your Debt (Credit Cards, Mortgage, Student Loans)';

/** Evidence of one kind of pressure saturates: a second urgency phrase adds half, a third nothing. */
function tacticGroupSum(weights: number[]): number {
  weights.sort((a, b) => b - a);
  return (weights[0] ?? 0) + 0.5 * (weights[1] ?? 0);
}

/**
 * Pairs that together are the definition of a scam, worth more than their parts: a loan that needs a fee
 * first (the spec's Advance Fee Loan) and a prize that needs a fee first.
 */
const COMBINATIONS: ReadonlyArray<[string, string, number]> = [
  ['loan_offer', 'pay_fee_first', 1.0],
  ['prize', 'pay_fee_first', 0.8],
  // "If you did not authorise this order, press 1": the fake-order robocall's whole script. A bank's
  // real alert says the same and adds an assurance, which outweighs this.
  ['dispute_prompt', 'press_key', 0.5],
  // "Your power will be disconnected … press 1 to stop the interruption": the utility shut-off robocall's
  // whole script. A real utility's notice sends the customer to the bill or the website, not a key.
  ['service_cutoff', 'press_key', 0.8],
];

/** Requests an honest caller's assurance promises never to make: asking one afterwards breaks it. */
const BREAKS_ASSURANCE: ReadonlySet<string> = new Set([
  'otp_request',
  'credential_request',
  'ssn_request',
  'identity_check',
  'gift_card_payment',
  'crypto_payment',
  'wire_cash_payment',
  'remote_request',
  'remote_tool',
]);
/** What asking after promising not to adds: it is the scammer's move, stronger evidence than the ask alone. */
export const BROKEN_ASSURANCE_BONUS = 1.0;

/**
 * True when the caller gave an assurance ("we will never ask for your PIN") and then made one of the
 * requests it rules out. The assurance then counts for nothing: a scammer can say it on purpose.
 */
export function assuranceBroken(hits: readonly Hit[]): boolean {
  const assurance = hits.find((h) => h.cue.id === 'safety_disclaimer');
  return !!assurance && hits.some((h) => BREAKS_ASSURANCE.has(h.cue.id) && h.at > assurance.at);
}

/** The evidence sum in log-odds, before calibration. */
export function evidenceLogit(hits: readonly Hit[]): number {
  const byGroup = new Map<string, number[]>();
  const tactics = new Set<Tactic>();
  const broken = assuranceBroken(hits);
  let z = broken ? BROKEN_ASSURANCE_BONUS : 0;
  for (const h of hits) {
    if (broken && h.cue.id === 'safety_disclaimer') continue;
    const g = h.cue.group ?? h.cue.tactic;
    if (h.cue.tactic) tactics.add(h.cue.tactic);
    if (g && h.cue.weight > 0) {
      const list = byGroup.get(g) ?? [];
      list.push(h.cue.weight);
      byGroup.set(g, list);
    } else z += h.cue.weight;
  }
  for (const list of byGroup.values()) z += tacticGroupSum(list);
  const ids = new Set(hits.map((h) => h.cue.id));
  for (const [a, b, bonus] of COMBINATIONS) if (ids.has(a) && ids.has(b)) z += bonus;
  // Call-back mechanics alone are how honest reminders work too; they do not count toward diversity.
  const distinct = [...tactics].filter((t) => t !== 'callback_pressure').length;
  z += TACTIC_DIVERSITY_BONUS[Math.min(distinct, TACTIC_DIVERSITY_BONUS.length - 1)]!;
  return z;
}

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
 * A recorded call's prompts ask for nothing more in a conversation: there, "call me back at …" is how
 * honest people end a call, and a live scammer's request is a code, a payment or access, which still
 * counts. Not knowing the shape (no speaker labels) is scored as a recorded call, as the prompts always were.
 */
function asksOf(hits: readonly Hit[], shape: CallShape): readonly Hit[] {
  return shape === 'conversation' ? hits.filter((h) => !PROMPTS.has(h.cue.id)) : hits;
}

function ladder(all: readonly Hit[], score: number, shape: CallShape): number {
  const hits = asksOf(all, shape);
  const has = (id: string) => hits.some((h) => h.cue.id === id);
  const requested = hits.some(
    (h) =>
      h.cue.weight > 0 &&
      ((h.cue.tactic && REQUEST_TACTICS.has(h.cue.tactic)) || REQUEST_IDS.has(h.cue.id) || isOffer(h.cue.id)),
  );
  const threatened = hits.some((h) => h.cue.tactic === 'threat' && h.cue.weight > 0);
  if (!requested) score = Math.min(score, threatened ? NO_REQUEST_CEILING : NO_ASK_CEILING);
  const claim = hits.some((h) => h.cue.tactic === 'authority_impersonation' || h.cue.id === 'family_emergency');
  const problem = hits.some(
    (h) =>
      h.cue.tactic === 'threat' || (PROBLEM_IDS.has(h.cue.id) && (h.cue.id !== 'account_alert' || ALARM.test(h.quote))),
  );
  const assured =
    hits.some((h) => h.cue.id === 'safety_disclaimer' || h.cue.id === 'collection_disclosure') &&
    !assuranceBroken(hits);
  if (claim && problem && (requested || threatened) && !assured) score = Math.max(score, CLAIM_AND_PROBLEM_FLOOR);
  const prompted = hits.some((h) => PROMPTS.has(h.cue.id));
  const pitch = hits.filter((h) => isOffer(h.cue.id) && h.cue.weight > 0);
  if (prompted && pitch.length && !assured) {
    score = Math.max(score, pitch.some((h) => SCAM_PITCHES.has(h.cue.id)) ? SCAM_PITCH_FLOOR : PITCH_FLOOR);
  }
  if (has('reported_call') && has('scam_talk')) score = Math.min(score, STORY_CEILING);
  return score;
}

/** The logistic map from evidence to score; `cal` other than the shipped fit serves cross-source evaluation. */
export interface Calibration {
  scale: number;
  bias: number;
}

export function probability(z: number, cal: Calibration = CALIBRATION): number {
  const x = cal.scale * (z + cal.bias);
  return 1 / (1 + Math.exp(-x));
}

/** Picks the complaint subject the evidence points at most strongly, with the spec's disambiguations. */
export function chooseCategory(hits: readonly Hit[], score: number): VerdictCategory {
  if (score < SUSPICIOUS_AT) return 'none';
  const votes = new Map<Category, number>();
  for (const h of hits) {
    for (const [cat, v] of Object.entries(h.cue.votes ?? {}) as Array<[Category, number]>) {
      votes.set(cat, (votes.get(cat) ?? 0) + v);
    }
  }
  const has = (id: string) => hits.some((h) => h.cue.id === id);
  // A loan is an Advance Fee Loan only when a fee comes first; relief on an existing debt is debt reduction.
  const feeLoan = has('loan_offer') && has('pay_fee_first');
  if (!feeLoan) votes.delete('Advance Fee Loan');
  if (feeLoan && has('debt_reduction_offer')) votes.set(DEBT, (votes.get(DEBT) ?? 0) + 1);
  else if (feeLoan) votes.set('Advance Fee Loan', (votes.get('Advance Fee Loan') ?? 0) + 2);
  else if (has('loan_offer') && !has('debt_reduction_offer')) votes.set('Financial Services', 1.5);
  // A tax story outranks the general imposter subject, whatever agency the caller names.
  if (has('tax_authority')) votes.set('Tax Collection', (votes.get('Tax Collection') ?? 0) + (votes.get(GOV) ?? 0));
  let best: Category | null = null;
  let bestVotes = 0;
  for (const [cat, v] of votes) {
    if (v > bestVotes) {
      best = cat;
      bestVotes = v;
    }
  }
  if (best) return best;
  if (has('otp_request') || has('credential_request') || has('ssn_request')) return 'Phishing';
  return 'Scammers';
}

const LABELS: Record<string, string> = {
  urgent_deadline: 'urgency',
  final_notice: 'final-notice pressure',
  dont_hang_up: 'keeps you on the line',
  keep_secret: 'asks for secrecy',
  gov_agency: 'claims to be an agency',
  officer_title: 'claims an official title',
  tax_authority: 'tax-authority story',
  ssn_suspended: 'Social Security threat',
  bank_impersonation: 'claims to be your bank',
  business_impersonation: 'claims to be a known company',
  account_alert: 'alarming account alert',
  arrest_threat: 'threat of arrest or legal action',
  service_cutoff: 'threat of disconnection',
  loss_threat: 'threat of loss',
  remote_tool: 'remote-access tool',
  remote_request: 'asks for remote access',
  tech_problem: 'fake computer problem',
  gift_card_payment: 'gift-card payment',
  crypto_payment: 'crypto payment',
  wire_cash_payment: 'untraceable payment',
  pay_fee_first: 'fee up front',
  otp_request: 'asks for a one-time code',
  credential_request: 'asks for account credentials',
  ssn_request: 'asks for identity numbers',
  prize: 'prize lure',
  refund: 'refund bait',
  family_emergency: 'family emergency',
  press_key: 'press-a-key prompt',
  call_back: 'call-back pressure',
  unsolicited_robocall: 'unsolicited automated call',
  case_reference: 'case reference',
  debt_reduction_offer: 'debt-relief pitch',
  credit_repair_offer: 'credit-repair pitch',
  loan_offer: 'loan offer',
  warranty_pitch: 'warranty pitch',
  medicare_pitch: 'health-benefit pitch',
  travel_pitch: 'travel pitch',
  money_making_pitch: 'money-making pitch',
  crypto_pitch: 'crypto pitch',
  charity_pitch: 'donation request',
  covid_pitch: 'pandemic pitch',
  directory_pitch: 'directory listing pitch',
  bec_pitch: 'payment-redirection request',
  romance_pitch: 'romance appeal',
  rental_pitch: 'rental deposit',
  moving_pitch: 'moving deposit',
  counterfeit_pitch: 'counterfeit goods',
  package_problem: 'package problem',
  chinese_authority: 'claims to be an authority',
  family_trouble: 'says they are in trouble',
  identity_check: 'asks you to prove who you are',
  business_loan_offer: 'business funding pitch',
};

/**
 * Turns evidence into the spec's assessment: calibrated score, category, tactics and quoted signals.
 * `shape` is the call's (`callShape`); unknown scores as every call was scored before shapes.
 */
export function assess(hits: readonly Hit[], cal: Calibration = CALIBRATION, shape: CallShape = 'unknown'): Assessment {
  const score = ladder(hits, probability(evidenceLogit(hits), cal), shape);
  const positive = hits.filter((h) => h.cue.weight > 0).sort((a, b) => b.cue.weight - a.cue.weight);
  const tactics = [...new Set(positive.flatMap((h) => (h.cue.tactic ? [h.cue.tactic] : [])))];
  const signals = [...new Set(positive.map(signalOf))].slice(0, 8);
  return { score, category: chooseCategory(hits, score), tactics, signals };
}

/**
 * A live call's scorer assesses the same hits again after every utterance; each one's signal is written
 * (and, as a Set key, hashed) once, not once per utterance.
 */
const SIGNALS = new WeakMap<Hit, string>();

function signalOf(h: Hit): string {
  let s = SIGNALS.get(h);
  if (s === undefined) {
    s = `${LABELS[h.cue.id] ?? h.cue.id}: "${h.quote}"`;
    SIGNALS.set(h, s);
  }
  return s;
}
