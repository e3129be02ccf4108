/*
 * Black-box clients for the conformance suite: plain fetch and `ws`, nothing from the service's own code,
 * so each test sees the product exactly as an outside caller does.
 */
import { expect } from 'chai';
import WebSocket from 'ws';

export type Json = Record<string, unknown>;

export interface Socket {
  ws: WebSocket;
  events: Json[];
  binary: Buffer[];
  /** Resolves with the close code once the server (or client) closes. */
  closed: Promise<{ code: number; reason: string }>;
  /** Resolves once the socket is open (rejects when the upgrade is refused). */
  opened: Promise<void>;
}

export function open(url: string, headers: Record<string, string> = {}): Socket {
  const ws = new WebSocket(url, { headers });
  const events: Json[] = [];
  const binary: Buffer[] = [];
  ws.on('message', (data, isBinary) => {
    if (isBinary) binary.push(data as Buffer);
    else events.push(JSON.parse(String(data)) as Json);
  });
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused ${res.statusCode ?? 0}`)));
    ws.once('error', reject);
  });
  opened.catch(() => undefined);
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason) }));
    ws.once('unexpected-response', () => resolve({ code: -1, reason: 'refused' }));
  });
  return { ws, events, binary, closed, opened };
}

/** The HTTP status a refused upgrade answers with (or 101 when it opens). */
export function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
    });
    ws.once('error', (e) => reject(e));
  });
}

export function send(s: Socket, msg: unknown): void {
  s.ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
}

export function say(s: Socket, text: string, extra: Json = {}): void {
  send(s, { type: 'transcript', text, ...extra });
}

/** Resolves when an event of `type` has arrived. */
export async function waitFor(s: Socket, type: string, ms = 10_000): Promise<Json> {
  const t0 = Date.now();
  for (;;) {
    const e = s.events.find((x) => x.type === type);
    if (e) return e;
    if (Date.now() - t0 > ms)
      throw new Error(`no ${type} within ${ms} ms; got ${s.events.map((x) => x.type).join(',')}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export async function api(
  base: string,
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Json; headers: Headers }> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers['X-Auth'] = opts.key;
  let body: string | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers['Content-Type'] ??= 'application/json';
  const res = await fetch(`${base}/voice${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: Json = {};
  try {
    parsed = JSON.parse(text) as Json;
  } catch {
    parsed = { _text: text };
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

export const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const VERDICT_FIELDS = ['score', 'level', 'category', 'tactics', 'signals', 'summary', 'source'];
export const SESSION_FIELDS = [
  'id',
  'kind',
  'protocol',
  'call_id',
  'from',
  'to',
  'persona_id',
  'started_at',
  'ended_at',
  'duration_seconds',
  'turns',
  'transcript',
  'score',
  'level',
  'category',
  'summary',
  'intel_count',
  'reported',
];
export const INTEL_FIELDS = [
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
  'dtmf',
];
export const CATEGORIES = [
  'Advance Fee Loan',
  'Bank/Credit Card Company Imposter',
  'Business Email Compromise',
  'Calls pretending to be government, businesses, or family and friends',
  'Charity',
  'Computer & Technical Support',
  'Counterfeit Product',
  'COVID-19',
  'Credit Cards',
  'Credit Repair/Debt Relief',
  'Cryptocurrency',
  'Debt Collection',
  'Lotteries, Prizes & Sweepstakes',
  'Medical & Prescriptions',
  'Moving',
  'No Subject Provided',
  'Phishing',
  'Reducing Your Debt (Credit Cards, Mortgage, Student Loans)',
  'Rental',
  'Romance',
  'Tax Collection',
  'Travel/Vacation/Timeshare',
  'Utility',
  'Warranties & Protection Plans',
  'Work From Home & Other Ways To Make Money',
  'Yellow Pages/Directories',
  'Hang Up',
  'Scammers',
  'Advertising',
  'Surveys',
  'Financial Services',
  'Store',
  'Company',
  'Other',
];
export const TACTICS = [
  'urgency',
  'secrecy',
  'authority_impersonation',
  'remote_access',
  'untraceable_payment',
  'pii_harvest',
  'otp_request',
  'threat',
  'prize_lure',
  'family_fear',
  'refund_bait',
  'callback_pressure',
];
export const LEVEL_OF = (s: number): string =>
  s >= 0.85 ? 'scam' : s >= 0.6 ? 'likely_scam' : s >= 0.3 ? 'suspicious' : 'clean';

/** Checks a verdict object against the spec's shape; returns it typed. */
export function checkVerdict(v: unknown): Json {
  const o = v as Json;
  const e = expect;
  e(o, 'verdict').to.be.an('object');
  for (const k of Object.keys(o)) e(VERDICT_FIELDS, `unknown verdict field ${k}`).to.include(k);
  e(o.score).to.be.a('number').within(0, 1);
  e(o.level).to.equal(LEVEL_OF(o.score as number));
  e(['none', ...CATEGORIES]).to.include(o.category);
  e(o.tactics).to.be.an('array');
  for (const t of o.tactics as string[]) e(TACTICS).to.include(t);
  e(o.signals).to.be.an('array');
  for (const s of o.signals as unknown[]) e(s).to.be.a('string');
  e(['heuristic', 'llm', 'combined', 'stored']).to.include(o.source);
  if (o.source === 'heuristic') e(o, 'summary only when a model produced the verdict').not.to.have.property('summary');
  if ('summary' in o) {
    e(o.summary).to.be.a('string');
    // At most two sentences.
    const sentences = (o.summary as string).split(/(?<=[.!?])\s+/).filter((x) => x.trim() !== '');
    e(sentences.length, `summary has at most two sentences: ${o.summary as string}`).to.be.at.most(2);
  }
  return o;
}

export function checkIntel(v: unknown): Json {
  const o = v as Json;
  const e = expect;
  e(o, 'intel').to.be.an('object');
  for (const [k, val] of Object.entries(o)) {
    e(INTEL_FIELDS, `unknown intel field ${k}`).to.include(k);
    if (k === 'dtmf') {
      e(val).to.be.a('string');
      e((val as string).length, 'empty dtmf omitted').to.be.greaterThan(0);
    } else {
      e(val, k).to.be.an('array');
      e((val as unknown[]).length, `empty ${k} omitted`).to.be.greaterThan(0);
      for (const x of val as unknown[]) e(x).to.be.a('string');
    }
  }
  for (const n of (o.callback_numbers as string[] | undefined) ?? []) e(n).to.match(/^\+[1-9]\d{6,14}$/);
  return o;
}
