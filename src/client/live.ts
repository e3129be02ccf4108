import WebSocket from 'ws';
import type { EventOf, LiveOptions, SessionEvent } from './types.js';
import { errorMessage, VoiceApiError } from './errors.js';

export interface TextOptions {
  /** `outbound` lines are the called party's (labelled callee). Default inbound. */
  track?: 'inbound' | 'outbound';
  /** false: an interim result, neither scored nor stored. Default true. */
  final?: boolean;
  /** Honeypot: the caller finished a turn, answer sooner. */
  endOfTurn?: boolean;
}

export interface Closed {
  code: number;
  reason: string;
}

/**
 * One live filter or honeypot session over its socket. Events arrive in order through the async
 * iterator (`for await (const e of session)`), `on(type, fn)` or `waitFor(type)`; honeypot audio
 * through `onAudio`. The start message is already sent when `open` resolves.
 */
export class LiveSession implements AsyncIterable<SessionEvent> {
  /** Every event received so far, in order. */
  readonly events: SessionEvent[] = [];
  /** Resolves when the socket closes (1000 after `session.ended`; 1008 when refused without events). */
  readonly closed: Promise<Closed>;
  private readonly listeners = new Set<(e: SessionEvent) => void>();
  private readonly audioListeners = new Set<(pcm: Buffer) => void>();
  private readonly wakers = new Set<() => void>();
  private isClosed = false;

  private constructor(readonly ws: WebSocket) {
    this.closed = new Promise<Closed>((resolve) =>
      ws.on('close', (code, reason) => {
        this.isClosed = true;
        this.wake();
        resolve({ code, reason: reason.toString() });
      }),
    );
    ws.on('message', (data: Buffer, isBinary) => {
      if (isBinary) {
        for (const fn of this.audioListeners) fn(data);
        return;
      }
      let e: SessionEvent;
      try {
        e = JSON.parse(data.toString('utf8')) as SessionEvent;
      } catch {
        return;
      }
      if (typeof (e as { type?: unknown }).type !== 'string') return;
      this.events.push(e);
      for (const fn of this.listeners) fn(e);
      this.wake();
    });
  }

  /** Connects, sends the start message and resolves; rejects with `VoiceApiError` when the upgrade is refused. */
  static open(url: string, start: Record<string, unknown>, timeoutMs = 10_000): Promise<LiveSession> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { handshakeTimeout: timeoutMs });
      const session = new LiveSession(ws);
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString('utf8')));
        res.on('end', () => reject(new VoiceApiError(res.statusCode ?? 0, errorMessage(body))));
      });
      ws.once('error', reject);
      ws.once('open', () => {
        ws.off('error', reject);
        ws.on('error', () => undefined); // surfaced as `closed`
        ws.send(JSON.stringify(start));
        resolve(session);
      });
    });
  }

  get id(): string | undefined {
    return this.events.find((e) => e.type === 'session.started')?.session_id;
  }

  /** Words the client transcribed itself. */
  sendText(text: string, opts: TextOptions = {}): void {
    const msg: Record<string, unknown> = { type: 'transcript', text };
    if (opts.track) msg.track = opts.track;
    if (opts.final === false) msg.final = false;
    if (opts.endOfTurn) msg.end_of_turn = true;
    this.send(msg);
  }

  /** Caller audio in the declared encoding and rate (20 to 200 ms per frame, in real time). */
  sendAudio(frame: Uint8Array): void {
    if (!this.isClosed) this.ws.send(frame, { binary: true });
  }

  sendDtmf(digit: string): void {
    this.send({ type: 'dtmf', digit });
  }

  /** Ends the call; the service answers with `session.ended` and closes. */
  stop(): void {
    this.send({ type: 'stop' });
  }

  /** Closes the socket at once (the service ends the session as if `stop` was sent). */
  close(): void {
    this.ws.close();
  }

  on(fn: (e: SessionEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Honeypot: the persona's audio, in the session's encoding and rate. */
  onAudio(fn: (frame: Buffer) => void): () => void {
    this.audioListeners.add(fn);
    return () => this.audioListeners.delete(fn);
  }

  /** The first event of this type (already received or still to come); rejects when the socket closes first. */
  waitFor<T extends SessionEvent['type']>(type: T, timeoutMs = 30_000): Promise<EventOf<T>> {
    const hit = this.events.find((e) => e.type === type);
    if (hit) return Promise.resolve(hit as EventOf<T>);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`no ${type} event within ${timeoutMs} ms`)), timeoutMs);
      const off = this.on((e) => {
        if (e.type === type) done(null, e as EventOf<T>);
      });
      void this.closed.then(() => done(new Error(`socket closed before ${type}`)));
      const done = (err: Error | null, e?: EventOf<T>) => {
        clearTimeout(timer);
        off();
        if (err) reject(err);
        else resolve(e!);
      };
    });
  }

  /** Stops the call and waits for its `session.ended`. */
  async finish(timeoutMs = 30_000): Promise<EventOf<'session.ended'>> {
    const ended = this.waitFor('session.ended', timeoutMs);
    this.stop();
    return ended;
  }

  /** Events in order, from the first; ends when the socket closes. */
  async *[Symbol.asyncIterator](): AsyncIterator<SessionEvent> {
    let i = 0;
    for (;;) {
      while (i < this.events.length) yield this.events[i++]!;
      if (this.isClosed) return;
      await new Promise<void>((resolve) => this.wakers.add(resolve));
    }
  }

  private wake(): void {
    const list = [...this.wakers];
    this.wakers.clear();
    for (const fn of list) fn();
  }

  private send(msg: unknown): void {
    if (!this.isClosed && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }
}

/** The start message and URL of a live socket from the client's options. */
export function liveRequest(
  base: string,
  kind: 'filter' | 'honeypot',
  key: string | undefined,
  opts: LiveOptions,
): { url: string; start: Record<string, unknown> } {
  const u = new URL(`${base.replace(/\/+$/, '')}/voice/${kind}/stream`);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  if (key) u.searchParams.set('key', key);
  if (opts.webhook) u.searchParams.set('webhook', opts.webhook);
  if (opts.language) u.searchParams.set('language', opts.language);
  if (opts.report !== undefined) u.searchParams.set('report', String(opts.report));
  if (opts.persona) u.searchParams.set('persona', opts.persona);
  if (opts.tracks) u.searchParams.set('tracks', opts.tracks);
  const start: Record<string, unknown> = { type: 'start' };
  for (const f of ['call_id', 'from', 'to', 'sample_rate', 'encoding'] as const) {
    if (opts[f] !== undefined) start[f] = opts[f];
  }
  if (opts.params) start.params = opts.params;
  return { url: u.toString(), start };
}
