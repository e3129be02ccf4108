import type { Category, VerdictCategory } from '../domain/categories.js';
import { SUSPICIOUS_AT } from '../domain/levels.js';
import type { Tactic } from '../domain/tactics.js';
import type { Assessment } from '../domain/verdict.js';
import { CALIBRATION } from './calibration.js';
import { TACTIC_DIVERSITY_BONUS } from './cues.js';
import type { Hit } from './evidence.js';
import type { CallShape } from './shape.js';
import { assuranceBroken, BROKEN_ASSURANCE_BONUS } from './assurance.js';
import { ladder } from './ladder.js';

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
  tech_support_claim: 'claims to be technical support',
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
