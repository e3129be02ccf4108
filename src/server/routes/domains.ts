import { randomBytes } from 'node:crypto';
import { webhookTarget } from '../../events/webhook.js';
import { findPersona } from '../../honeypot/personas.js';
import type { Services } from '../../services.js';
import type { Domain } from '../../store/types.js';
import { readJson } from '../http/json.js';
import { HttpError, ok, type Route } from '../types.js';

/** A domain id is a host name as it appears in a Request-URI: lower-case letters, digits, dots, dashes. */
export const DOMAIN_ID = /^[a-z0-9.-]{1,253}$/;
const ID_RULE = 'id: must match ^[a-z0-9.-]{1,253}$ (a lower-case host name)';
const SPAM_ACTIONS = ['decline', 'honeypot'] as const;
const FIELDS = new Set(['spam_action', 'forward_uri', 'persona', 'webhook']);
/** `sip:` or `sips:` URI with a host; no spaces or angle brackets (it goes into a Contact header). */
const SIP_URI = /^sips?:(?:[^\s<>@]+@)?[A-Za-z0-9.[\]:-]+(?::\d{1,5})?(?:;[^\s<>]*)?$/;

/** What the owner sees of a domain. */
export function publicDomain(d: Domain): Record<string, unknown> {
  const out: Record<string, unknown> = { id: d.id, spam_action: d.spam_action };
  if (d.forward_uri) out.forward_uri = d.forward_uri;
  if (d.persona) out.persona = d.persona;
  if (d.webhook) out.webhook = d.webhook;
  if (d.webhook_secret) out.webhook_secret = d.webhook_secret;
  out.updated_at = d.updated_at;
  return out;
}

function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const v = body[field];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new HttpError(400, `${field}: must be a string`);
  return v.trim();
}

/**
 * Validates a PUT body into the domain's settings. Every field is optional; an absent field takes its
 * default (PUT replaces the whole domain).
 */
export function parseDomainBody(
  body: Record<string, unknown>,
  s: Pick<Services, 'personas'>,
): Pick<Domain, 'spam_action' | 'forward_uri' | 'persona' | 'webhook'> {
  for (const k of Object.keys(body)) if (!FIELDS.has(k)) throw new HttpError(400, `${k}: unknown field`);
  const action = body.spam_action ?? 'decline';
  if (typeof action !== 'string' || !(SPAM_ACTIONS as readonly string[]).includes(action)) {
    throw new HttpError(400, `spam_action: must be one of ${SPAM_ACTIONS.join(', ')}`);
  }
  const out: Pick<Domain, 'spam_action' | 'forward_uri' | 'persona' | 'webhook'> = {
    spam_action: action as Domain['spam_action'],
  };
  const forward = optionalString(body, 'forward_uri');
  if (forward !== undefined) {
    if (forward.length > 512 || !SIP_URI.test(forward)) {
      throw new HttpError(400, 'forward_uri: must be a sip: or sips: URI, e.g. sip:pbx.example.com');
    }
    out.forward_uri = forward;
  }
  const persona = optionalString(body, 'persona');
  if (persona !== undefined) {
    const found = findPersona(s.personas, persona);
    if (!found) throw new HttpError(400, `persona: unknown persona "${persona}" (see GET /voice/personas)`);
    out.persona = found.id;
  }
  const webhook = optionalString(body, 'webhook');
  if (webhook !== undefined) {
    if (webhook.length > 2048 || !webhookTarget(webhook)) throw new HttpError(400, 'webhook: must be an HTTPS URL');
    out.webhook = webhook;
  }
  return out;
}

/** SIP-firewall domains at `{api_root}/domains/{id}` (not under /voice). */
export function domainRoutes(s: Services): Route[] {
  const owned = async (id: string, keyId: string): Promise<Domain | null> => {
    if (!DOMAIN_ID.test(id)) throw new HttpError(400, ID_RULE);
    const found = await s.store.domains.get(id);
    return found && found.key_id === keyId ? found : null;
  };
  return [
    {
      method: 'PUT',
      path: '/domains/:id',
      auth: 'header',
      handle: async (req) => {
        const id = req.params.id ?? '';
        const keyId = req.key!.id;
        if (!DOMAIN_ID.test(id)) throw new HttpError(400, ID_RULE);
        const settings = parseDomainBody(readJson(req, true), s);
        const existing = await s.store.domains.get(id);
        if (existing && existing.key_id !== keyId) throw new HttpError(409, 'id: domain is registered to another key');
        const domain: Domain = { id, key_id: keyId, ...settings, updated_at: new Date().toISOString() };
        // The secret survives updates so receivers keep verifying; it exists only while a webhook does.
        if (domain.webhook)
          domain.webhook_secret = existing?.webhook_secret ?? `whsec_${randomBytes(24).toString('hex')}`;
        await s.store.domains.put(domain);
        return ok({ domain: publicDomain(domain) });
      },
    },
    {
      method: 'GET',
      path: '/domains/:id',
      auth: 'header',
      handle: async (req) => {
        const id = req.params.id ?? '';
        const found = await owned(id, req.key!.id);
        if (!found) throw new HttpError(404, `domain not found: ${id}`);
        return ok({ domain: publicDomain(found) });
      },
    },
  ];
}
