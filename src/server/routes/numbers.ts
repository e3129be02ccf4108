/*
 * Number lookups over filed complaints (additions to the spec, see docs/api-additions.md):
 * - GET /voice/numbers/{e164}: whether a number is reported, how often, under which subjects, and when.
 * - GET /voice/numbers?reported=true&since=<RFC 3339>&limit=<1..1000>: a paged feed of reported numbers
 *   for device block lists, oldest change first; pass the last item's `last_seen` as the next `since`.
 */
import { isE164 } from '../../domain/phone.js';
import type { Services } from '../../services.js';
import type { NumberStatus } from '../../store/types.js';
import { HttpError, ok, type Route } from '../types.js';

export const FEED_DEFAULT_LIMIT = 100;
export const FEED_MAX_LIMIT = 1000;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/i;

function bad(field: string, why: string): HttpError {
  return new HttpError(400, `${field}: ${why}`);
}

/** The lookup body; timestamps are omitted while a number has never been filed. */
export function numberBody(st: NumberStatus): Record<string, unknown> {
  const body: Record<string, unknown> = {
    number: st.number,
    reported: st.reported,
    complaints: st.complaints,
    categories: st.categories,
  };
  if (st.first_seen) body.first_seen = st.first_seen;
  if (st.last_seen) body.last_seen = st.last_seen;
  return body;
}

export interface FeedQuery {
  since: string;
  limit: number;
}

/** Validates the feed's query; every problem names its parameter. */
export function parseFeedQuery(q: URLSearchParams): FeedQuery {
  const reported = q.get('reported');
  if (reported !== null && reported.toLowerCase() !== 'true') {
    throw bad('reported', 'only reported=true is supported: the feed lists reported numbers');
  }
  const sinceRaw = q.get('since');
  let since = new Date(0).toISOString();
  if (sinceRaw !== null) {
    const t = Date.parse(sinceRaw);
    if (!RFC3339.test(sinceRaw.trim()) || Number.isNaN(t))
      throw bad('since', 'must be an RFC 3339 time, e.g. 2026-01-31T00:00:00Z');
    since = new Date(t).toISOString();
  }
  const limitRaw = q.get('limit');
  let limit = FEED_DEFAULT_LIMIT;
  if (limitRaw !== null) {
    if (!/^\d+$/.test(limitRaw.trim())) throw bad('limit', `must be a whole number from 1 to ${FEED_MAX_LIMIT}`);
    limit = Number(limitRaw);
    if (limit < 1 || limit > FEED_MAX_LIMIT) throw bad('limit', `must be a whole number from 1 to ${FEED_MAX_LIMIT}`);
  }
  return { since, limit };
}

export function numbersRoutes(s: Services): Route[] {
  return [
    {
      method: 'GET',
      path: '/voice/numbers/:e164',
      auth: 'header',
      handle: async (req) => {
        const number = (req.params.e164 ?? '').trim();
        if (!isE164(number)) throw bad('number', 'must be an E.164 number with a leading + (URL-encoded as %2B)');
        return ok(numberBody(await s.store.complaints.status(number)));
      },
    },
    {
      method: 'GET',
      path: '/voice/numbers',
      auth: 'header',
      handle: async (req) => {
        const { since, limit } = parseFeedQuery(req.query);
        const rows = (await s.store.complaints.feed(since, limit)).filter((r) => r.reported);
        const last = rows[rows.length - 1];
        const body: Record<string, unknown> = { numbers: rows.map(numberBody), since, limit };
        if (last?.last_seen && rows.length === limit) body.next_since = last.last_seen;
        return ok(body);
      },
    },
  ];
}
