import { CATEGORIES, CATEGORY_DESCRIPTIONS, CATEGORY_NOTES } from '../../domain/categories.js';
import { CREDIT_USD, PRICES } from '../../domain/prices.js';
import type { Services } from '../../services.js';
import { ok, type Route } from '../types.js';

/** A provider is named `<provider>:<model>`; a switched-off or unavailable one is `none`. */
function providerName(p: { id: string } | null): string {
  return p?.id ?? 'none';
}

export function capabilities(s: Services): Record<string, unknown> {
  const f = s.config.features;
  return {
    scan: f.has('scan'),
    live_filter: f.has('live_filter'),
    honeypot: f.has('honeypot'),
    llm: providerName(s.llm),
    // One model provider serves live scoring and the final analysis.
    analysis_llm: providerName(s.llm),
    stt: providerName(s.stt),
    tts: providerName(s.tts),
    personas: s.personas.length,
    prices: {
      credit_usd: CREDIT_USD,
      filter_per_minute: PRICES.filter_per_minute,
      honeypot_per_minute: PRICES.honeypot_per_minute,
      scan: PRICES.scan,
      scan_audio_minute: PRICES.scan_audio_minute,
      managed_telephony_per_minute: PRICES.managed_telephony_per_minute,
    },
  };
}

/** What the deployment supports. Capabilities take no key: load balancers and clients probe them first. */
export function discoveryRoutes(s: Services): Route[] {
  return [
    {
      method: 'GET',
      path: '/voice/capabilities',
      auth: 'none',
      handle: async () => ok({ capabilities: capabilities(s) }),
    },
    {
      method: 'GET',
      path: '/voice/categories',
      auth: 'header',
      handle: async () =>
        ok({
          categories: CATEGORIES.map((name) => ({ name, description: CATEGORY_DESCRIPTIONS[name] })),
          notes: CATEGORY_NOTES,
        }),
    },
    {
      method: 'GET',
      path: '/voice/personas',
      auth: 'header',
      // Only what a caller may see: the backstory and fake details stay with the dialogue engine.
      handle: async () =>
        ok({
          personas: s.personas.map(({ id, name, voice, language, description }) => ({
            id,
            name,
            voice,
            language,
            description,
          })),
        }),
    },
  ];
}
