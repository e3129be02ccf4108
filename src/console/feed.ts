import type { Observable, Subscription } from 'rxjs';
import type { Protocol, SessionEvent, SessionKind } from '../domain/events.js';
import type { SessionActor } from '../session/actor.js';

/** What the console shows of a live or recently ended session. */
export interface ConsoleSession {
  session_id: string;
  kind: SessionKind;
  protocol: Protocol;
  call_id?: string;
  from?: string;
  to?: string;
  started_at: string;
  live: boolean;
  events: SessionEvent[];
}

/** Messages on the console socket, server to browser. */
export type ConsoleMessage =
  | { type: 'snapshot'; sessions: ConsoleSession[] }
  | { type: 'session'; session: Omit<ConsoleSession, 'events'> }
  | { type: 'event'; session_id: string; event: SessionEvent }
  | { type: 'closed'; session_id: string };

interface Entry {
  keyId: string;
  view: ConsoleSession;
}

export interface FeedOptions {
  /** Ended sessions kept in memory per node for the console (newest win). */
  keepEnded?: number;
  /** Events kept per session: a long honeypot call keeps its latest ones. */
  maxEvents?: number;
}

/**
 * The console's view of this node's sessions: it taps every session as it opens, keeps its events
 * (and those of the last few ended ones) in memory, and fans them out to the console sockets of the
 * key that owns each session. It never touches the sessions themselves.
 */
export class ConsoleFeed {
  private readonly entries = new Map<string, Entry>();
  private readonly watchers = new Map<string, Set<(m: ConsoleMessage) => void>>();
  private readonly sub: Subscription;
  private readonly keepEnded: number;
  private readonly maxEvents: number;

  constructor(opened$: Observable<SessionActor>, opts: FeedOptions = {}) {
    this.keepEnded = opts.keepEnded ?? 50;
    this.maxEvents = opts.maxEvents ?? 1000;
    this.sub = opened$.subscribe((actor) => this.track(actor));
  }

  /** The sessions of one key, newest first. */
  snapshot(keyId: string): ConsoleSession[] {
    return [...this.entries.values()]
      .filter((e) => e.keyId === keyId)
      .map((e) => ({ ...e.view, events: [...e.view.events] }))
      .reverse();
  }

  /** Live messages for one key's sessions; returns the unsubscribe. */
  watch(keyId: string, fn: (m: ConsoleMessage) => void): () => void {
    let set = this.watchers.get(keyId);
    if (!set) this.watchers.set(keyId, (set = new Set()));
    set.add(fn);
    return () => {
      set.delete(fn);
      if (set.size === 0) this.watchers.delete(keyId);
    };
  }

  close(): void {
    this.sub.unsubscribe();
    this.watchers.clear();
  }

  private track(actor: SessionActor): void {
    const { spec } = actor;
    const view: ConsoleSession = {
      session_id: actor.id,
      kind: spec.kind,
      protocol: spec.protocol,
      started_at: new Date().toISOString(),
      live: true,
      events: [],
    };
    if (spec.start.callId) view.call_id = spec.start.callId;
    if (spec.start.from) view.from = spec.start.from;
    if (spec.start.to) view.to = spec.start.to;
    const keyId = spec.key.id;
    this.entries.set(actor.id, { keyId, view });
    this.prune();
    const { events: _e, ...meta } = view;
    this.emit(keyId, { type: 'session', session: meta });
    actor.events$.subscribe({
      next: (event) => {
        view.events.push(event);
        if (view.events.length > this.maxEvents) view.events.splice(1, view.events.length - this.maxEvents);
        this.emit(keyId, { type: 'event', session_id: actor.id, event });
      },
      complete: () => {
        view.live = false;
        this.emit(keyId, { type: 'closed', session_id: actor.id });
      },
      error: () => undefined,
    });
  }

  /** Drops the oldest ended sessions beyond `keepEnded`; live ones always stay. */
  private prune(): void {
    const ended = [...this.entries.values()].filter((e) => !e.view.live);
    for (const e of ended.slice(0, Math.max(0, ended.length - this.keepEnded))) this.entries.delete(e.view.session_id);
  }

  private emit(keyId: string, m: ConsoleMessage): void {
    for (const fn of this.watchers.get(keyId) ?? []) {
      try {
        fn(m);
      } catch {
        // a broken console socket never disturbs a session
      }
    }
  }
}
