import { NEVER_FILED } from './categories.js';
import type { Intel } from './intel.js';
import { isE164 } from './phone.js';
import type { Verdict } from './verdict.js';

export type Product = 'filter' | 'honeypot' | 'scan';

/** Spec: 0.85 on the filter and scan, 0.8 on the honeypot; `Other` needs 0.85 everywhere. */
export function filingThreshold(product: Product, category: string): number {
  if (category === 'Other') return 0.85;
  return product === 'honeypot' ? 0.8 : 0.85;
}

/** Numbers a complaint may be filed for: the caller (E.164 with `+`) and every callback number. */
export function numbersToFile(from: string | undefined, intel: Intel): string[] {
  const numbers = new Set<string>();
  if (isE164(from)) numbers.add(from);
  for (const n of intel.callback_numbers ?? []) if (isE164(n)) numbers.add(n);
  return [...numbers];
}

/** All filing conditions of the spec; returns the numbers to file (empty when nothing is filed). */
export function filingDecision(
  product: Product,
  report: boolean,
  verdict: Pick<Verdict, 'score' | 'category'>,
  from: string | undefined,
  intel: Intel,
): string[] {
  if (!report) return [];
  if (NEVER_FILED.has(verdict.category)) return [];
  if (verdict.score < filingThreshold(product, verdict.category)) return [];
  return numbersToFile(from, intel);
}
