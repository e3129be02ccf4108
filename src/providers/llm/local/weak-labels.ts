/*
 * Weak category labels for training-only robocalls, which carry no per-call subject. First match
 * wins, most specific story first; a scam that matches nothing is `Scammers`. Used only to build
 * the category centroids, never as a verdict.
 */
import type { Category } from '../../../domain/categories.js';

const RULES: ReadonlyArray<[RegExp, Category]> = [
  [/\b(?:irs|internal revenue|tax (?:debt|relief|return|department|liabilit)|back taxes)\b/, 'Tax Collection'],
  [/\b(?:student loans?|interest rates?|debt relief|consolidat\w*|credit card (?:debt|balance)|lower your (?:monthly )?payments?)\b/, 'Reducing Your Debt (Credit Cards, Mortgage, Student Loans)'],
  [/\b(?:warranty|vehicle service|auto protection)\b/, 'Warranties & Protection Plans'],
  [/\b(?:medicare|health insurance|back brace|knee brace|prescription|medical alert|diabetic)\b/, 'Medical & Prescriptions'],
  [/\b(?:electric(?:ity)? (?:company|bill|service)|utility|power (?:company|will be)|gas company|disconnect\w*)\b/, 'Utility'],
  [/\b(?:computer|virus|technical support|tech support|windows|microsoft|hack(?:ed|er))\b/, 'Computer & Technical Support'],
  [/\b(?:cruise|vacation|resort|timeshare|hotel|hilton|marriott)\b/, 'Travel/Vacation/Timeshare'],
  [/\b(?:you(?:'ve| have)? won|prize|sweepstakes|lottery)\b/, 'Lotteries, Prizes & Sweepstakes'],
  [/\b(?:bitcoin|crypto\w*)\b/, 'Cryptocurrency'],
  [/\b(?:visa|mastercard|card ?member services|card services|your bank account|fraud department of your bank)\b/, 'Bank/Credit Card Company Imposter'],
  [/\b(?:social security|ssa|ssn|federal|government|police|sheriff|warrant|legal (?:department|action)|lawsuit|embassy|consulate|customs|immigration|amazon|apple|order (?:has been )?placed|pre-?authori[sz]ed)\b/, 'Calls pretending to be government, businesses, or family and friends'],
  [/\b(?:business loan|line of credit|cash advance|merchant)\b/, 'Financial Services'],
  [/\b(?:directv|dish|discount|special offer|promotion|solar)\b/, 'Advertising'],
  [/\b(?:survey|poll)\b/, 'Surveys'],
  [/\b(?:google (?:listing|business)|directory|yellow pages)\b/, 'Yellow Pages/Directories'],
];

export function weakCategory(lower: string, language?: string): Category {
  // The Chinese-language robocalls are package, customs and embassy impersonations.
  if (language === 'zh') return 'Calls pretending to be government, businesses, or family and friends';
  for (const [re, category] of RULES) if (re.test(lower)) return category;
  return 'Scammers';
}
