import type { SessionKind } from '../domain/events.js';
import { REPORT_DEFAULT } from '../domain/limits.js';
import type { SessionOptions } from './types.js';

/** Option keys the live products understand (URL query, start `params`, SIP headers). */
export const OPTION_KEYS = ['webhook', 'language', 'report', 'tracks', 'persona'] as const;

/**
 * Merges URL options with the start message's `params`; a `params` value wins. Unknown keys and
 * unusable values fall back to the defaults: an option never refuses a call.
 */
export function mergeOptions(
  kind: SessionKind,
  url: Readonly<Record<string, string | undefined>>,
  params: Readonly<Record<string, string>>,
): SessionOptions {
  const pick = (k: (typeof OPTION_KEYS)[number]): string | undefined => {
    const v = params[k] ?? url[k];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  const report = pick('report')?.toLowerCase();
  const opts: SessionOptions = {
    report: report === 'true' ? true : report === 'false' ? false : REPORT_DEFAULT[kind],
    // The honeypot's called party is the persona; only the filter transcribes both tracks.
    tracksBoth: kind === 'filter' && pick('tracks')?.toLowerCase() === 'both',
  };
  const webhook = pick('webhook');
  if (webhook) opts.webhook = webhook;
  const language = pick('language');
  if (language && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(language)) opts.language = language;
  const persona = pick('persona');
  if (kind === 'honeypot' && persona) opts.persona = persona;
  return opts;
}

/** The option values of a URL query (only the keys above). */
export function urlOptions(query: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of OPTION_KEYS) {
    const v = query.get(k);
    if (v !== null) out[k] = v;
  }
  return out;
}
