/*
 * Category rules: the subject a call's story names, first match wins, most specific story first.
 * They give the training robocalls (which carry no per-call subject) weak labels for the category
 * centroids, and at inference they decide first; the centroids decide only when no rule matches.
 */
import type { Category } from '../../../domain/categories.js';

const IMPOSTER: Category = 'Calls pretending to be government, businesses, or family and friends';

export const RULES: ReadonlyArray<[RegExp, Category]> = [
  [
    /\b(?:grandma|grandpa|grandson|granddaughter|bail (?:money|bond)|your (?:son|daughter|nephew|niece|grandchild)\b[^.?!]{0,50}\b(?:accident|arrested|jail|hospital))\b/,
    IMPOSTER,
  ],
  [/\b(?:irs|internal revenue|tax (?:debt|relief|return|department|liabilit\w*)|back taxes)\b/, 'Tax Collection'],
  [
    /\b(?:computer|virus|technical support|tech support|windows|microsoft|hack(?:ed|er)|anydesk|teamviewer)\b/,
    'Computer & Technical Support',
  ],
  [
    /\b(?:sweepstakes|lottery|you(?:'ve| have)? (?:just )?won(?!')|grand prize|claim (?:your|the) prize)\b/,
    'Lotteries, Prizes & Sweepstakes',
  ],
  [
    /\b(?:student loans?|interest rates?|debt relief|consolidat\w*|credit card (?:debt|balance)|lower your (?:monthly )?payments?)\b/,
    'Reducing Your Debt (Credit Cards, Mortgage, Student Loans)',
  ],
  [/\b(?:loan)\b[^.?!]{0,80}\b(?:fee|deposit|insurance)\b/, 'Advance Fee Loan'],
  [/\b(?:warranty|vehicle service|auto protection)\b/, 'Warranties & Protection Plans'],
  [
    /\b(?:medicare|health insurance|back brace|knee brace|prescription|medical alert|diabetic)\b/,
    'Medical & Prescriptions',
  ],
  [/\b(?:electric(?:ity)?|utility|power (?:company|will be)|gas company|water (?:company|bill))\b/, 'Utility'],
  [/\b(?:cruise|vacation|resort|timeshare|hotel|hilton|marriott)\b/, 'Travel/Vacation/Timeshare'],
  [/\b(?:bitcoin|crypto\w*)\b/, 'Cryptocurrency'],
  // Before the bank rule: a job scam asks for "your bank account" to set up pay.
  [
    /\b(?:work from home|remote (?:job|position|work)|data entry|job (?:offer|opportunity)|(?:position|job) (?:paying|that pays)|earn \$?\d+ (?:a|per) (?:day|week|hour)|(?:\d+|\w+) dollars (?:an|per) hour)\b/,
    'Work From Home & Other Ways To Make Money',
  ],
  [
    /\b(?:visa|mastercard|card ?member services|card services|your bank|bank account|fraud department|chase|wells fargo|bank of america|citibank|capital one|credit union|bank teller|the teller|the branch)\b/,
    'Bank/Credit Card Company Imposter',
  ],
  [
    /\b(?:ceo|cfo|chief executive|invoice|vendor account|supplier|payroll|new banking details)\b/,
    'Business Email Compromise',
  ],
  [
    /\b(?:social security|ssa|ssn|federal|government|police|sheriff|warrant|legal (?:department|action)|lawsuit|embassy|consulate|customs|immigration|amazon|apple|order (?:has been )?placed|pre-?authori[sz]ed)\b/,
    IMPOSTER,
  ],
  [/\b(?:business loan|line of credit|cash advance|merchant)\b/, 'Financial Services'],
  [/\b(?:directv|direct tv|dish network|discount|special offer|promotion|solar)\b/, 'Advertising'],
  [/\b(?:survey|poll)\b/, 'Surveys'],
  [/\b(?:google (?:listing|business)|directory|yellow pages)\b/, 'Yellow Pages/Directories'],
];

/** The subject a rule names, or undefined when none does. */
export function ruleCategory(lower: string): Category | undefined {
  for (const [re, category] of RULES) if (re.test(lower)) return category;
  return undefined;
}

const SEARCHES = RULES.map(([re]) => new RegExp(re.source, `${re.flags}g`));

/**
 * `ruleCategory` of a text that grows at its end (a running call): each update tries the rules not yet
 * matched on the new text and the `reach` characters before it, where a match crossing into the new text
 * would begin; a rule that has matched stays matched, since text is only ever added after it.
 */
export class SubjectWatch {
  private readonly matched = new Array<boolean>(RULES.length).fill(false);
  private searched = 0;

  constructor(private readonly reach: number) {}

  update(lower: string): void {
    const from = Math.max(0, this.searched - this.reach);
    for (let i = 0; i < SEARCHES.length; i++) {
      if (this.matched[i]) continue;
      const re = SEARCHES[i]!;
      re.lastIndex = from;
      this.matched[i] = re.test(lower);
      re.lastIndex = 0;
    }
    this.searched = lower.length;
  }

  get subject(): Category | undefined {
    const i = this.matched.indexOf(true);
    return i < 0 ? undefined : RULES[i]![1];
  }
}

export function weakCategory(lower: string, language?: string): Category {
  // The Chinese-language robocalls are package, customs and embassy impersonations.
  if (language === 'zh') return IMPOSTER;
  return ruleCategory(lower) ?? 'Scammers';
}
