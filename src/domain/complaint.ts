import type { Intel } from './intel.js';
import { INTEL_LIST_FIELDS } from './intel.js';
import type { Verdict } from './verdict.js';

/** Human labels for intel fields in a complaint comment. */
const LABELS: Record<(typeof INTEL_LIST_FIELDS)[number], string> = {
  names: 'Names',
  organizations: 'Organizations',
  callback_numbers: 'Callback numbers',
  emails: 'Emails',
  urls: 'URLs',
  crypto_wallets: 'Crypto wallets',
  bank_accounts: 'Bank accounts',
  card_numbers: 'Card numbers',
  gift_card_brands: 'Gift cards',
  payment_apps: 'Payment apps',
  remote_tools: 'Remote tools',
  remote_codes: 'Remote codes',
  case_numbers: 'Case numbers',
  amounts: 'Amounts',
  addresses: 'Addresses',
  scripts: 'Pitch',
};

/** A complaint's comment: the verdict summary (or its signals when no model summarised), then the intel. */
export function complaintComment(verdict: Pick<Verdict, 'summary' | 'signals' | 'score'>, intel: Intel): string {
  const lines: string[] = [];
  const summary = verdict.summary?.trim() || verdict.signals.slice(0, 3).join('; ');
  if (summary) lines.push(summary);
  for (const field of INTEL_LIST_FIELDS) {
    const values = intel[field];
    if (values?.length) lines.push(`${LABELS[field]}: ${values.join(', ')}`);
  }
  if (intel.dtmf) lines.push(`Keys pressed: ${intel.dtmf}`);
  return lines.join('\n').slice(0, 4000);
}
