import { asyncScheduler, ReplaySubject, Subject, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import type { Pipeline } from '../../pipelines/types.js';
import { livePipelines } from '../../pipelines/index.js';
import { openRecord } from '../../pipelines/live/ending.js';
import { LIVE_PROFILES } from '../../pipelines/live/profile.js';
import type { SessionKind } from '../domain/events.js';
import { metrics } from '../observability/metrics.js';
import type { Services } from '../services.js';
import { DEFAULT_LEASE_SECONDS, leaseUntil } from '../domain/lease.js';
import { SessionActor } from './actor.js';
import { holdLeases } from './leases.js';
import type { Reservation, SessionSpec } from './types.js';
import { TurnQueue } from '../util/turn-queue.js';
import { uuidv7 } from '../util/uuid7.js';

export class InsufficientCreditsError extends Error {
  constructor(readonly price: number) {
    super(`insufficient credits for the first minute (${price} credits)`);
    this.name = 'InsufficientCreditsError';
  }
}

export class NoPipelineError extends Error {
  constructor(kind: SessionKind) {
    super(`no pipeline for ${kind} sessions on this node`);
    this.name = 'NoPipelineError';
  }
}

export interface SupervisorOptions {
  /** Live sessions (counting reservations) the node accepts; config.maxSessions by default. */
  capacity?: number;
  scheduler?: SchedulerLike;
  pipelines?: Partial<Record<SessionKind, Pipeline>>;
  webhookTls?: { ca?: string | Buffer; rejectUnauthorized?: boolean };
}

/**
 * The node's supervisor: counts capacity slots (taken at upgrade, so a burst of upgrades cannot
 * overshoot), opens session actors, and drains them on shutdown. It never looks inside a session.
 */
export class Supervisor {
  private readonly capacity: number;
  private readonly scheduler: SchedulerLike;
  private readonly pipelines: Partial<Record<SessionKind, Pipeline>>;
  private slots = 0;
  private draining = false;
  private readonly live = new Set<SessionActor>();
  private readonly openedOut = new Subject<SessionActor>();
  /** The drain deadline, once draining: sessions ending after it was set still see it. */
  private readonly shutdown$ = new ReplaySubject<number>(1);
  // Graphs are built one per turn of the loop: a burst of starts must not stall the calls already live.
  private readonly starts = new TurnQueue((err) => this.services.log.error({ err }, 'building a live session failed'));
  /**
   * Every session as it opens, before its graph runs, so a subscriber to its `events$` sees them all
   * (the operator console's tap). Observers must not throw or block.
   */
  readonly opened$: Observable<SessionActor> = this.openedOut.asObservable();

  constructor(
    private readonly services: Services,
    private readonly opts: SupervisorOptions = {},
  ) {
    this.capacity = opts.capacity ?? services.config.maxSessions;
    this.scheduler = opts.scheduler ?? asyncScheduler;
    this.pipelines = opts.pipelines ?? livePipelines;
  }

  /** A capacity slot, or null when the node is full or draining (answer 503). Release is idempotent. */
  reserve(): Reservation | null {
    if (this.draining || this.slots >= this.capacity) return null;
    this.slots++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.slots--;
      },
    };
  }

  get reserved(): number {
    return this.slots;
  }

  get liveCount(): number {
    return this.live.size;
  }

  /** The sessions running now. */
  liveSessions(): readonly SessionActor[] {
    return [...this.live];
  }

  get isDraining(): boolean {
    return this.draining;
  }

  hasPipeline(kind: SessionKind): boolean {
    return this.pipelines[kind] !== undefined;
  }

  /**
   * Charges the first minute and writes the `open` record, then returns the actor (not yet running).
   * The reservation is released when the session has ended (its socket may close earlier).
   * Throws `InsufficientCreditsError` when the first minute cannot be charged (nothing is written).
   */
  async open(spec: SessionSpec, reservation: Reservation): Promise<SessionActor> {
    const pipeline = this.pipelines[spec.kind];
    if (!pipeline) throw new NoPipelineError(spec.kind);
    const price = LIVE_PROFILES[spec.kind].minutePrice(spec.options.tracksBoth);
    if (!(await this.services.store.keys.debit(spec.key.id, price))) throw new InsufficientCreditsError(price);
    metrics.creditsCharged.inc({ product: spec.kind }, price);
    const id = uuidv7();
    try {
      const now = this.scheduler.now();
      await this.services.store.sessions.put({
        ...openRecord({ sessionId: id, spec, ports: { nodeId: this.services.config.nodeId } }, now),
        lease_until: leaseUntil(now, this.leaseMs),
      });
    } catch (err) {
      this.services.log.error({ err, session: id }, 'writing the open session record failed; session continues');
    }
    const actor = new SessionActor(id, spec, {
      services: this.services,
      scheduler: this.scheduler,
      pipeline,
      shutdown$: this.shutdown$,
      ...(this.opts.webhookTls ? { webhookTls: this.opts.webhookTls } : {}),
    });
    this.live.add(actor);
    this.openedOut.next(actor);
    void actor.settled.finally(() => {
      this.live.delete(actor);
      reservation.release();
    });
    if (this.draining) actor.end('shutdown');
    return actor;
  }

  private get leaseMs(): number {
    return (this.services.config.sessionLeaseSeconds ?? DEFAULT_LEASE_SECONDS) * 1000;
  }

  /** Renews the leases of this node's sessions and ends other nodes' expired ones until unsubscribed. */
  holdLeases(): Subscription {
    return holdLeases({
      sessions: this.services.store.sessions,
      live: () => [...this.live].map((a) => a.id),
      leaseMs: this.leaseMs,
      scheduler: this.scheduler,
      log: this.services.log,
    });
  }

  /**
   * Runs an opened actor's graph on a later turn of the loop, one start a turn (a group commit resolves many
   * opens at once). Until then the actor keeps the frames pushed to it, in order. Subscribe to its outputs first.
   */
  start(actor: SessionActor): void {
    this.starts.push(() => actor.run());
  }

  /**
   * Stops accepting, then ends every live session properly (final analysis, record, `session.ended`,
   * webhook posts) and waits for them, at most `ms`. Every session's end, including those already ending,
   * is cut to fit `ms`: a slow model's analysis gives way to the rules' verdict.
   */
  async drain(ms: number): Promise<void> {
    this.draining = true;
    this.shutdown$.next(this.scheduler.now() + ms);
    const all = [...this.live];
    for (const a of all) a.end('shutdown');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(all.map((a) => a.settled)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
    ]);
    clearTimeout(timer);
  }
}
