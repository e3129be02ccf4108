import { errorMessage, retryAfterSeconds, VoiceApiError } from './errors.js';
import { LiveSession, liveRequest } from './live.js';
import type {
  Capabilities,
  LiveOptions,
  NumberStatus,
  Persona,
  ScanRequest,
  ScanResponse,
  SessionDetail,
  SessionRecord,
} from './types.js';

export interface VoiceClientOptions {
  /** `{api_root}`, e.g. `https://voice.example.com` (the API itself is under `/voice`). */
  url: string;
  /** The API key; only `capabilities()` works without one. */
  key?: string;
  /** Per-request time-out in ms (default 30 s; scans get 95 s, just over the service's 90 s). */
  timeoutMs?: number;
}

/**
 * A small typed client for the HTTP API and the live sockets. Every method resolves to the response
 * body without its `status` field, or rejects with `VoiceApiError` carrying the HTTP status and message.
 */
export class VoiceClient {
  readonly url: string;
  private readonly key: string | undefined;
  private readonly timeoutMs: number;

  constructor(opts: VoiceClientOptions) {
    this.url = opts.url.replace(/\/+$/, '');
    this.key = opts.key;
    this.timeoutMs = opts.timeoutMs ?? 30_000;
  }

  async capabilities(): Promise<Capabilities> {
    return (await this.request<{ capabilities: Capabilities }>('GET', '/voice/capabilities')).capabilities;
  }

  async personas(): Promise<Persona[]> {
    return (await this.request<{ personas: Persona[] }>('GET', '/voice/personas')).personas;
  }

  async categories(): Promise<{ categories: Array<{ name: string; description: string }>; notes: string[] }> {
    return this.request('GET', '/voice/categories');
  }

  /** Scores a transcript or a recording (audio bytes go base64-encoded in the JSON body). */
  async scan(req: ScanRequest, signal?: AbortSignal): Promise<ScanResponse> {
    const body: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(req)) {
      if (v === undefined) continue;
      if (k === 'audio') body.audio_base64 = Buffer.from(v as Uint8Array).toString('base64');
      else body[k] = v;
    }
    return this.request('POST', '/voice/scan', body, { timeoutMs: 95_000, signal });
  }

  async sessions(limit?: number): Promise<SessionRecord[]> {
    const q = limit === undefined ? '' : `?limit=${limit}`;
    return (await this.request<{ sessions: SessionRecord[] }>('GET', `/voice/sessions${q}`)).sessions;
  }

  async session(id: string): Promise<SessionDetail> {
    return this.request('GET', `/voice/sessions/${encodeURIComponent(id)}`);
  }

  async number(e164: string): Promise<NumberStatus> {
    return this.request('GET', `/voice/numbers/${encodeURIComponent(e164)}`);
  }

  /** Opens a live filter socket and sends the start message. */
  openFilter(opts: LiveOptions = {}): Promise<LiveSession> {
    const { url, start } = liveRequest(this.url, 'filter', this.key, opts);
    return LiveSession.open(url, start, opts.timeoutMs);
  }

  /** Opens a honeypot socket and sends the start message; persona audio arrives through `onAudio`. */
  openHoneypot(opts: LiveOptions = {}): Promise<LiveSession> {
    const { url, start } = liveRequest(this.url, 'honeypot', this.key, opts);
    return LiveSession.open(url, start, opts.timeoutMs);
  }

  /** One request; the body of a success without `status`. */
  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    opts: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<T> {
    const headers: Record<string, string> = {};
    if (this.key) headers['X-Auth'] = this.key;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const timeout = AbortSignal.timeout(opts.timeoutMs ?? this.timeoutMs);
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout,
    });
    const text = await res.text();
    if (!res.ok)
      throw new VoiceApiError(res.status, errorMessage(text), retryAfterSeconds(res.headers.get('retry-after')));
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new VoiceApiError(res.status, `not JSON: ${text.slice(0, 100)}`);
    }
    const { status: _status, ...rest } = parsed;
    return rest as T;
  }
}
