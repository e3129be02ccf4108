import { isE164 } from '../../domain/phone.js';
import type { Services } from '../../services.js';
import { filterXml, honeypotXml, type XmlVendor } from '../../transport/xml.js';
import { HttpError, type HttpRequest, type HttpResponse, type Route } from '../types.js';

/**
 * Vendor-XML entry points: the voice URL a screened number (filter) or a honeypot number points
 * at. Each answers the vendor's call-control XML that streams the call to this node's socket.
 * POST is what the vendor calls (its voice webhook, form-encoded, carries `From` and `To`);
 * GET previews the same document, with `from`/`to` taken from the query.
 */

const VENDORS: ReadonlyArray<{ vendor: XmlVendor; slug: string }> = [
  { vendor: 'vendor_a', slug: 'vendor-a' },
  { vendor: 'vendor_b', slug: 'vendor-b' },
];

/** Vendor A caps each stream parameter at 500 characters, name and value together. */
const MAX_PARAMETER = 499;
const LANGUAGE = /^(auto|[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*)$/;
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

function bad(field: string, message: string): never {
  throw new HttpError(400, `${field}: ${message}`);
}

/**
 * An E.164 number from the query. A `+` that was not URL-encoded arrives as a space (form
 * decoding), so a leading space before digits is read as the `+` it was meant to be.
 */
function numberParam(q: URLSearchParams, field: string, required: boolean): string | undefined {
  const raw = q.get(field);
  if (raw === null || raw.trim() === '') {
    if (required) bad(field, 'required: an E.164 number with a leading +, URL-encoded (%2B)');
    return undefined;
  }
  const value = /^ \d+$/.test(raw) ? `+${raw.slice(1)}` : raw.trim();
  if (!isE164(value)) bad(field, 'must be an E.164 number with a leading + (URL-encode it as %2B)');
  return value;
}

function webhookParam(q: URLSearchParams): string | undefined {
  const raw = q.get('webhook')?.trim();
  if (!raw) return undefined;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return bad('webhook', 'not a URL');
  }
  // The spec's options table: HTTP URLs are ignored (as on the sockets), not refused.
  if (u.protocol === 'http:') return undefined;
  if (u.protocol !== 'https:') bad('webhook', 'must be an HTTPS URL');
  return raw;
}

function reportParam(q: URLSearchParams): string | undefined {
  const raw = q.get('report')?.trim().toLowerCase();
  if (!raw) return undefined;
  if (raw !== 'true' && raw !== 'false') bad('report', 'must be true or false');
  return raw;
}

function languageParam(q: URLSearchParams): string | undefined {
  const raw = q.get('language')?.trim();
  if (!raw) return undefined;
  if (!LANGUAGE.test(raw)) bad('language', 'must be a BCP-47 language code such as en-US, or auto');
  return raw;
}

function tracksParam(q: URLSearchParams): 'both' | undefined {
  const raw = q.get('tracks')?.trim().toLowerCase();
  if (!raw || raw === 'inbound') return undefined;
  if (raw !== 'both') bad('tracks', 'must be both (or left out for the caller only)');
  return 'both';
}

/** The caller's numbers: the vendor's voice-webhook form (`From`, `To`), else the query (preview). */
function callNumbers(req: HttpRequest): { from?: string; to?: string } {
  let form = new URLSearchParams();
  const type = req.headers['content-type'] ?? '';
  if (req.method === 'POST' && type.includes('application/x-www-form-urlencoded')) {
    form = new URLSearchParams(req.body.toString('utf8'));
  }
  // Numbers from the vendor are facts about the call, not user input: a withheld or odd caller
  // id ("anonymous", a SIP URI) is left out rather than refused, so the call still goes through.
  const pick = (formName: string, queryName: string) =>
    [form.get(formName)?.trim(), req.query.get(queryName)?.trim()].find(isE164);
  return { from: pick('From', 'from'), to: pick('To', 'to') };
}

/** `{socket_url}` root: the configured public address, else this request's Host and scheme. */
export function socketRoot(publicUrl: string | undefined, headers: Readonly<Record<string, string>>): string {
  if (publicUrl) return publicUrl.replace(/^http(s?):/, 'ws$1:');
  const host = headers.host?.trim();
  if (!host || !HOST.test(host)) throw new HttpError(400, 'Host: missing or invalid header (or set VOICE_PUBLIC_URL)');
  const proto = headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase();
  return `${proto === 'https' ? 'wss' : 'ws'}://${host}`;
}

function checkSizes(params: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && name.length + value.length > MAX_PARAMETER) {
      bad(name, `too long to ride as a stream parameter (name and value under ${MAX_PARAMETER + 1} characters)`);
    }
  }
}

/**
 * The socket URL for the vendor. Vendor A drops query strings from stream URLs, so its key rides
 * only as the `key` stream parameter. Vendor B keeps the spec's `key=` query as well, so its
 * upgrade is authenticated like any client's; the parameter is the fallback.
 */
function streamUrl(s: Services, req: HttpRequest, vendor: XmlVendor, product: 'filter' | 'honeypot'): string {
  const url = `${socketRoot(s.config.publicUrl, req.headers)}/voice/${product}/stream`;
  return vendor === 'vendor_b' && req.rawKey ? `${url}?key=${encodeURIComponent(req.rawKey)}` : url;
}

function xml(text: string): HttpResponse {
  return { status: 200, text, contentType: 'text/xml; charset=utf-8' };
}

function requireFeature(s: Services, feature: 'live_filter' | 'honeypot'): void {
  if (!s.config.features.has(feature)) throw new HttpError(503, `${feature} is off on this deployment`);
}

function filterHandler(s: Services, vendor: XmlVendor) {
  return async (req: HttpRequest): Promise<HttpResponse> => {
    requireFeature(s, 'live_filter');
    const q = req.query;
    const forward = numberParam(q, 'forward', true)!;
    const tracks = tracksParam(q);
    const params = {
      key: req.rawKey,
      ...callNumbers(req),
      webhook: webhookParam(q),
      language: languageParam(q),
      report: reportParam(q),
      tracks,
    };
    checkSizes(params);
    const url = streamUrl(s, req, vendor, 'filter');
    return xml(filterXml(vendor, { streamUrl: url, forward, bothTracks: tracks === 'both', params }));
  };
}

function honeypotHandler(s: Services, vendor: XmlVendor) {
  return async (req: HttpRequest): Promise<HttpResponse> => {
    requireFeature(s, 'honeypot');
    const q = req.query;
    const persona = q.get('persona')?.trim() || undefined;
    if (persona !== undefined && !s.personas.some((p) => p.id === persona)) {
      bad('persona', `unknown persona id (see GET /voice/personas)`);
    }
    const params = { key: req.rawKey, ...callNumbers(req), persona, webhook: webhookParam(q), report: reportParam(q) };
    checkSizes(params);
    return xml(honeypotXml(vendor, { streamUrl: streamUrl(s, req, vendor, 'honeypot'), params }));
  };
}

export function vendorXmlRoutes(s: Services): Route[] {
  const routes: Route[] = [];
  for (const { vendor, slug } of VENDORS) {
    for (const method of ['POST', 'GET'] as const) {
      routes.push(
        { method, path: `/voice/filter/${slug}-xml`, auth: 'header-or-query', handle: filterHandler(s, vendor) },
        { method, path: `/voice/honeypot/${slug}-xml`, auth: 'header-or-query', handle: honeypotHandler(s, vendor) },
      );
    }
  }
  return routes;
}
