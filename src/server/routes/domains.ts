import { randomBytes } from 'node:crypto';
import { webhookTarget } from '../../events/webhook.js';
import { findPersona } from '../../honeypot/personas.js';
import type { Services } from '../../services.js';
import type { Domain } from '../../store/types.js';
import { readJson } from '../http/json.js';
import { HttpError, ok, type Route } from '../types.js';

/** A domain id is a host name as it appears in a Request-URI: letters, digits, dots, dashes (stored lower-case). */
export const DOMAIN_ID = /^[a-z0-9.-]{1,253}$/;
const ID_RULE = 'id: must be a host name of letters, digits, dots and dashes (at most 253)';
const SPAM_ACTIONS = ['decline', 'honeypot'] as const;

type Settings = Pick<Domain, 'spam_action' | 'forward_uri' | 'persona' | 'webhook'>;

/** Host names are case-insensitive: `PBX.Example.com` and `pbx.example.com` are one domain. */
function domainId(raw: string): string {
  const id = raw.toLowerCase();
  if (!DOMAIN_ID.test(id)) throw new HttpError(400, ID_RULE);
  return id;
}
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
 * Validates a PUT body and applies it to the domain's current settings (or the defaults for a new one).
 * The spec shows only `spam_action`, so a dashboard may send `spam_action` alone: a field the body leaves
 * out keeps its value, `null` or `""` clears it, and fields this service does not know are ignored.
 */
export function parseDomainBody(
  body: Record<string, unknown>,
  s: Pick<Services, 'personas'>,
  current: Settings = { spam_action: 'decline' },
): Settings {
  const out: Settings = { ...current };
  const clear = (field: keyof Settings) => (body[field] === null || body[field] === '') && delete out[field];
  const action = body.spam_action ?? current.spam_action;
  if (typeof action !== 'string' || !(SPAM_ACTIONS as readonly string[]).includes(action)) {
    throw new HttpError(400, `spam_action: must be one of ${SPAM_ACTIONS.join(', ')}`);
  }
  out.spam_action = action as Domain['spam_action'];
  clear('forward_uri');
  clear('persona');
  clear('webhook');
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
    const found = await s.store.domains.get(id);
    return found && found.key_id === keyId ? found : null;
  };
  return [
    {
      method: 'PUT',
      path: '/domains/:id',
      auth: 'header',
      handle: async (req) => {
        const id = domainId(req.params.id ?? '');
        const keyId = req.key!.id;
        const body = readJson(req, true);
        const existing = await s.store.domains.get(id);
        if (existing && existing.key_id !== keyId) throw new HttpError(409, 'id: domain is registered to another key');
        const current: Settings | undefined = existing
          ? {
              spam_action: existing.spam_action,
              forward_uri: existing.forward_uri,
              persona: existing.persona,
              webhook: existing.webhook,
            }
          : undefined;
        const settings = parseDomainBody(body, s, current);
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
        const id = domainId(req.params.id ?? '');
        const found = await owned(id, req.key!.id);
        if (!found) throw new HttpError(404, `domain not found: ${id}`);
        return ok({ domain: publicDomain(found) });
      },
    },
  ];
}
