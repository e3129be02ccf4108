/*
 * SIP messages (RFC 3261 §7): parsing a datagram or a framed stream message into a request or a
 * response, and serialising one back. Header values are kept as received so that a response can copy
 * Via, From, Call-ID and CSeq verbatim (§8.2.6.2).
 */

export interface SipRequest {
  type: 'request';
  method: string;
  uri: string;
  headers: SipHeaders;
  body: Buffer;
}

export interface SipResponse {
  type: 'response';
  status: number;
  reason: string;
  headers: SipHeaders;
  body: Buffer;
}

export type SipMessage = SipRequest | SipResponse;

/** RFC 3261 §7.3.3 compact header names. */
const COMPACT: Readonly<Record<string, string>> = {
  i: 'call-id',
  m: 'contact',
  e: 'content-encoding',
  l: 'content-length',
  c: 'content-type',
  f: 'from',
  s: 'subject',
  k: 'supported',
  t: 'to',
  v: 'via',
};

/** Headers whose comma-separated values are separate entries (§7.3.1); others stay whole. */
const LIST_HEADERS = new Set([
  'via',
  'route',
  'record-route',
  'allow',
  'supported',
  'require',
  'unsupported',
  'proxy-require',
]);

/** Case-insensitive header map; each name keeps its values in order of appearance. */
export class SipHeaders {
  private readonly map = new Map<string, string[]>();

  static canonical(name: string): string {
    const lower = name.toLowerCase();
    return COMPACT[lower] ?? lower;
  }

  get(name: string): string | undefined {
    return this.map.get(SipHeaders.canonical(name))?.[0];
  }

  all(name: string): string[] {
    return [...(this.map.get(SipHeaders.canonical(name)) ?? [])];
  }

  has(name: string): boolean {
    return this.map.has(SipHeaders.canonical(name));
  }

  add(name: string, value: string): this {
    const key = SipHeaders.canonical(name);
    const values = LIST_HEADERS.has(key) ? splitList(value) : [value.trim()];
    const list = this.map.get(key);
    if (list) list.push(...values);
    else this.map.set(key, values);
    return this;
  }

  set(name: string, value: string | string[]): this {
    this.map.set(SipHeaders.canonical(name), Array.isArray(value) ? [...value] : [value]);
    return this;
  }

  delete(name: string): void {
    this.map.delete(SipHeaders.canonical(name));
  }

  entries(): Array<[string, string[]]> {
    return [...this.map.entries()];
  }
}

/** Splits on commas outside quotes and angle brackets. */
function splitList(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch === '"' && value[i - 1] !== '\\') quoted = !quoted;
    else if (!quoted && ch === '<') depth++;
    else if (!quoted && ch === '>') depth = Math.max(0, depth - 1);
    else if (!quoted && depth === 0 && ch === ',') {
      out.push(value.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(value.slice(start).trim());
  return out.filter((v) => v !== '');
}

export class SipParseError extends Error {
  override name = 'SipParseError';
}

const REQUEST_LINE = /^([A-Za-z][A-Za-z0-9.!%*_+`'~-]*) (\S+) SIP\/2\.0$/;
const STATUS_LINE = /^SIP\/2\.0 ([1-6]\d\d) ?(.*)$/;

/** Largest header section accepted; SIP over UDP stays far below (RFC 3261 §18.1.1). */
export const MAX_HEADER_BYTES = 16 * 1024;
export const MAX_BODY_BYTES = 64 * 1024;

/** Index just past the blank line ending the header section, or -1 when it has not arrived yet. */
export function headerEnd(buf: Buffer): number {
  const i = buf.indexOf('\r\n\r\n');
  return i < 0 ? -1 : i + 4;
}

/** Parses the header section (everything before the blank line) of a message. */
function parseHead(head: string): { start: string; headers: SipHeaders } {
  // Header folding (§7.3.1): a line starting with whitespace continues the previous one.
  const lines = head.replace(/\r\n[ \t]+/g, ' ').split('\r\n');
  const start = (lines.shift() ?? '').trim();
  const headers = new SipHeaders();
  for (const line of lines) {
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) throw new SipParseError(`malformed header line: ${line.slice(0, 60)}`);
    headers.add(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return { start, headers };
}

function startOf(start: string, headers: SipHeaders, body: Buffer): SipMessage {
  const req = REQUEST_LINE.exec(start);
  if (req) return { type: 'request', method: req[1]!.toUpperCase(), uri: req[2]!, headers, body };
  const res = STATUS_LINE.exec(start);
  if (res) return { type: 'response', status: Number(res[1]), reason: res[2] ?? '', headers, body };
  throw new SipParseError(`not a SIP start line: ${start.slice(0, 60)}`);
}

/** Declared body length, or null when Content-Length is absent. */
export function contentLength(headers: SipHeaders): number | null {
  const raw = headers.get('content-length');
  if (raw === undefined) return null;
  if (!/^\d+$/.test(raw)) throw new SipParseError('Content-Length is not a number');
  const n = Number(raw);
  if (n > MAX_BODY_BYTES) throw new SipParseError('body too large');
  return n;
}

/** Parses one whole datagram. A missing Content-Length means "the rest of the datagram" (§18.3). */
export function parseDatagram(buf: Buffer): SipMessage {
  const end = headerEnd(buf);
  if (end < 0) throw new SipParseError('no end of headers');
  if (end > MAX_HEADER_BYTES) throw new SipParseError('headers too large');
  const { start, headers } = parseHead(
    buf
      .subarray(0, end - 4)
      .toString('utf8')
      .replace(/^(\r\n)+/, ''),
  );
  const declared = contentLength(headers);
  const rest = buf.subarray(end);
  if (declared !== null && declared > rest.length) throw new SipParseError('body shorter than Content-Length');
  const body = Buffer.from(declared === null ? rest : rest.subarray(0, declared));
  return startOf(start, headers, body);
}

/**
 * Frames messages on a byte stream (TCP): Content-Length is mandatory there (§18.3). Keep-alive CRLFs
 * between messages (RFC 5626 §3.5.1) are skipped.
 */
export class StreamFramer {
  private buf: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): SipMessage[] {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: SipMessage[] = [];
    for (;;) {
      let skip = 0;
      while (skip + 1 < this.buf.length && this.buf[skip] === 0x0d && this.buf[skip + 1] === 0x0a) skip += 2;
      if (skip) this.buf = this.buf.subarray(skip);
      const end = headerEnd(this.buf);
      if (end < 0) {
        if (this.buf.length > MAX_HEADER_BYTES) throw new SipParseError('headers too large');
        return out;
      }
      const { start, headers } = parseHead(this.buf.subarray(0, end - 4).toString('utf8'));
      const length = contentLength(headers);
      if (length === null) throw new SipParseError('Content-Length is required on a stream transport');
      if (this.buf.length < end + length) return out;
      out.push(startOf(start, headers, Buffer.from(this.buf.subarray(end, end + length))));
      this.buf = this.buf.subarray(end + length);
    }
  }
}

/** Conventional capitalisation of header names on the wire. */
function wireName(name: string): string {
  if (name === 'call-id') return 'Call-ID';
  if (name === 'cseq') return 'CSeq';
  if (name === 'www-authenticate') return 'WWW-Authenticate';
  return name.replace(/(^|-)([a-z])/g, (_m, dash: string, ch: string) => dash + ch.toUpperCase());
}

/** Serialises a message; Content-Length is always set from the body. */
export function serialize(msg: SipMessage): Buffer {
  const start = msg.type === 'request' ? `${msg.method} ${msg.uri} SIP/2.0` : `SIP/2.0 ${msg.status} ${msg.reason}`;
  const lines = [start];
  for (const [name, values] of msg.headers.entries()) {
    if (name === 'content-length') continue;
    // Via stays one line per hop so a proxy can pop the top one.
    if (name === 'via') for (const v of values) lines.push(`Via: ${v}`);
    else if (values.length) lines.push(`${wireName(name)}: ${values.join(', ')}`);
  }
  lines.push(`Content-Length: ${msg.body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8'), msg.body]);
}

/** Standard reason phrases used by the UAS. */
export const REASONS: Readonly<Record<number, string>> = {
  100: 'Trying',
  180: 'Ringing',
  200: 'OK',
  302: 'Moved Temporarily',
  400: 'Bad Request',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  420: 'Bad Extension',
  408: 'Request Timeout',
  480: 'Temporarily Unavailable',
  481: 'Call/Transaction Does Not Exist',
  483: 'Too Many Hops',
  486: 'Busy Here',
  487: 'Request Terminated',
  488: 'Not Acceptable Here',
  500: 'Server Internal Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
  603: 'Decline',
};

/**
 * A response to `req` (§8.2.6): Via, From, Call-ID and CSeq copied, To copied with `toTag` added
 * when given and not already present.
 */
export function responseTo(
  req: SipRequest,
  status: number,
  opts: { reason?: string; toTag?: string; headers?: Record<string, string>; body?: Buffer } = {},
): SipResponse {
  const headers = new SipHeaders();
  headers.set('via', req.headers.all('via'));
  let to = req.headers.get('to') ?? '';
  if (opts.toTag && status > 100 && !/;\s*tag=/i.test(to)) to += `;tag=${opts.toTag}`;
  headers.set('from', req.headers.get('from') ?? '');
  headers.set('to', to);
  headers.set('call-id', req.headers.get('call-id') ?? '');
  headers.set('cseq', req.headers.get('cseq') ?? '');
  for (const [k, v] of Object.entries(opts.headers ?? {})) headers.set(k, v);
  return {
    type: 'response',
    status,
    reason: opts.reason ?? REASONS[status] ?? '',
    headers,
    body: opts.body ?? Buffer.alloc(0),
  };
}

/** `CSeq: 314 INVITE` → { seq: 314, method: 'INVITE' }. */
export function parseCSeq(value: string | undefined): { seq: number; method: string } | null {
  const m = /^(\d{1,10})\s+([A-Za-z]+)$/.exec(value?.trim() ?? '');
  return m ? { seq: Number(m[1]), method: m[2]!.toUpperCase() } : null;
}

/** A header parameter (`;tag=`, `;branch=`), case-insensitive name. */
export function headerParam(value: string | undefined, name: string): string | undefined {
  if (!value) return undefined;
  // Parameters after the closing `>` of a name-addr, or after the value itself.
  const tail = value.includes('>') ? value.slice(value.lastIndexOf('>') + 1) : value;
  const re = new RegExp(`;\\s*${name}\\s*(?:=\\s*("[^"]*"|[^;,\\s]+))?`, 'i');
  const m = re.exec(tail);
  if (!m) return undefined;
  return (m[1] ?? '').replace(/^"|"$/g, '');
}

/** The four fields every request must carry (§8.1.1) beyond the start line. */
export function missingMandatory(req: SipRequest): string | null {
  for (const h of ['via', 'from', 'to', 'call-id', 'cseq']) if (!req.headers.get(h)) return h;
  if (!parseCSeq(req.headers.get('cseq'))) return 'cseq';
  return null;
}
