/** The spec's intel object: every field optional and omitted when empty; all arrays but `dtmf`. */
export const INTEL_LIST_FIELDS = [
  'names',
  'organizations',
  'callback_numbers',
  'emails',
  'urls',
  'crypto_wallets',
  'bank_accounts',
  'card_numbers',
  'gift_card_brands',
  'payment_apps',
  'remote_tools',
  'remote_codes',
  'case_numbers',
  'amounts',
  'addresses',
  'scripts',
] as const;

export type IntelListField = (typeof INTEL_LIST_FIELDS)[number];
export type Intel = { [K in IntelListField]?: string[] } & { dtmf?: string };

/** Whitespace other than single spaces: most values have none, and then need no rewriting. */
const UNUSUAL_SPACE = /[^\S ]| {2}/;

/** Lower case, single spaces, no trailing punctuation; a loop, not a `[…]+$` regex, so long runs stay linear. */
function factKey(value: string): string {
  const lower = value.toLowerCase();
  const key = UNUSUAL_SPACE.test(lower) ? lower.replace(/\s+/g, ' ') : lower;
  let end = key.length;
  while (end > 0 && ' .,;:!?'.includes(key[end - 1]!)) end--;
  return key.slice(0, end);
}

/** Merges several partial intel objects, keeping first-seen order and dropping duplicates and empties. */
export function mergeIntel(...parts: ReadonlyArray<Intel | undefined>): Intel {
  const out: Intel = {};
  for (const field of INTEL_LIST_FIELDS) {
    // Most fields are empty in every part: no map for them (this runs several times per analysed call).
    let seen: Map<string, string> | undefined;
    for (const part of parts) {
      const values = part?.[field];
      if (!values) continue;
      for (const value of values) {
        const trimmed = value.trim();
        // One fact however it was punctuated or spaced ("Do not tell anyone" and "Do not tell anyone."):
        // `intel_count` counts distinct facts.
        const key = factKey(trimmed);
        if (!key) continue;
        seen ??= new Map();
        if (!seen.has(key)) seen.set(key, trimmed);
      }
    }
    if (seen) out[field] = [...seen.values()];
  }
  let dtmf = '';
  for (const part of parts) if (part?.dtmf) dtmf += part.dtmf;
  if (dtmf) out.dtmf = dtmf;
  return out;
}

/** `intel_count`: distinct facts. A non-empty DTMF string counts as one fact. */
export function countIntel(intel: Intel): number {
  let n = 0;
  for (const field of INTEL_LIST_FIELDS) n += intel[field]?.length ?? 0;
  if (intel.dtmf) n += 1;
  return n;
}

/** Returns a copy in the spec's field order with empty fields omitted (stable JSON for tests and hashes). */
export function normalizeIntel(intel: Intel): Intel {
  return mergeIntel(intel);
}
