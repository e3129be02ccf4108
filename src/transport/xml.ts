/**
 * A tiny XML writer for the vendor call-control documents, and the documents themselves.
 * Every value that reaches the output goes through one escaping function, so caller numbers,
 * webhook URLs and keys cannot break out of an attribute.
 */
import { HONEYPOT_TIME_LIMIT_MS } from '../domain/limits.js';

export interface XmlElement {
  name: string;
  attrs: ReadonlyArray<readonly [string, string]>;
  children: ReadonlyArray<XmlElement | string>;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** Builds an element; attributes whose value is undefined are left out, in the order given. */
export function el(
  name: string,
  attrs: Record<string, string | number | undefined> = {},
  ...children: Array<XmlElement | string>
): XmlElement {
  if (!NAME.test(name)) throw new Error(`invalid XML element name ${name}`);
  const list: Array<readonly [string, string]> = [];
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined) continue;
    if (!NAME.test(k)) throw new Error(`invalid XML attribute name ${k}`);
    list.push([k, String(v)]);
  }
  return { name, attrs: list, children };
}

/** Characters XML 1.0 cannot carry at all (control characters other than tab, newline, CR). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Escapes text for element content and double-quoted attributes alike. */
export function escapeXml(value: string): string {
  return (
    value
      .replace(FORBIDDEN, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
      // Attribute-value normalisation would turn these into spaces: keep them as references.
      .replace(/\t/g, '&#9;')
      .replace(/\n/g, '&#10;')
      .replace(/\r/g, '&#13;')
  );
}

function render(e: XmlElement, depth: number, out: string[]): void {
  const pad = '  '.repeat(depth);
  const attrs = e.attrs.map(([k, v]) => ` ${k}="${escapeXml(v)}"`).join('');
  if (e.children.length === 0) {
    out.push(`${pad}<${e.name}${attrs}/>`);
  } else if (e.children.every((c) => typeof c === 'string')) {
    out.push(`${pad}<${e.name}${attrs}>${(e.children as string[]).map(escapeXml).join('')}</${e.name}>`);
  } else {
    out.push(`${pad}<${e.name}${attrs}>`);
    for (const c of e.children) {
      if (typeof c === 'string') out.push(`${pad}  ${escapeXml(c)}`);
      else render(c, depth + 1, out);
    }
    out.push(`${pad}</${e.name}>`);
  }
}

/** A whole document with its declaration. */
export function renderXml(root: XmlElement): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  render(root, 0, out);
  return out.join('\n') + '\n';
}

// ---- Vendor documents ----------------------------------------------------------------------

export type XmlVendor = 'vendor_a' | 'vendor_b';

/** Longest honeypot call (spec: 15 minutes) plus a margin for the greeting and the final analysis. */
export const HONEYPOT_HOLD_SECONDS = HONEYPOT_TIME_LIMIT_MS / 1000 + 60;

function parameters(params: Record<string, string | undefined>): XmlElement[] {
  return Object.entries(params)
    .filter((e): e is [string, string] => e[1] !== undefined && e[1] !== '')
    .map(([name, value]) => el('Parameter', { name, value }));
}

/**
 * Filter: tap the call with a one-way media stream to the filter socket, then ring `forward`.
 * Options and the key ride as stream parameters: vendor A drops query strings from stream URLs.
 */
export function filterXml(
  vendor: XmlVendor,
  opts: { streamUrl: string; forward: string; bothTracks: boolean; params: Record<string, string | undefined> },
): string {
  const track = opts.bothTracks ? 'both_tracks' : 'inbound_track';
  const stream = el(
    'Stream',
    { url: opts.streamUrl, track, codec: vendor === 'vendor_b' ? 'PCMU' : undefined },
    ...parameters(opts.params),
  );
  const dial = vendor === 'vendor_a' ? el('Dial', {}, opts.forward) : el('Dial', {}, el('Number', {}, opts.forward));
  return renderXml(el('Response', {}, el('Start', {}, stream), dial));
}

/**
 * Honeypot: hand the call to the honeypot socket with a two-way stream. Vendor A's <Connect>
 * holds the call until the socket closes, then <Hangup/> ends it. Vendor B's two-way stream is a
 * <Start> with RTP playback in the same codec it streams in (the persona's audio is encoded in
 * the stream's codec), held by a <Pause> as long as the longest honeypot call.
 */
export function honeypotXml(
  vendor: XmlVendor,
  opts: { streamUrl: string; params: Record<string, string | undefined> },
): string {
  if (vendor === 'vendor_a') {
    const stream = el('Stream', { url: opts.streamUrl }, ...parameters(opts.params));
    return renderXml(el('Response', {}, el('Connect', {}, stream), el('Hangup')));
  }
  const stream = el(
    'Stream',
    {
      url: opts.streamUrl,
      track: 'inbound_track',
      codec: 'PCMU',
      bidirectionalMode: 'rtp',
      bidirectionalCodec: 'PCMU',
      bidirectionalSamplingRate: 8000,
    },
    ...parameters(opts.params),
  );
  return renderXml(
    el('Response', {}, el('Start', {}, stream), el('Pause', { length: HONEYPOT_HOLD_SECONDS }), el('Hangup')),
  );
}
