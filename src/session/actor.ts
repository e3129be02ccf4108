import { Subject, type Observable, type SchedulerLike } from 'rxjs';
import type { SessionEvent } from '../domain/events.js';
import type { EndReason, Frame, OutboundFrame } from '../domain/frames.js';
import { createWebhookSink, type WebhookSink } from '../events/webhook.js';
import { metrics } from '../observability/metrics.js';
import { pipelinePorts, type Services } from '../services.js';
import type { Pipeline } from '../../pipelines/types.js';
import { Relay } from '../util/relay.js';
import type { SessionHandle, SessionSpec } from './types.js';

/** Frames that may wait between the start message and the graph running (a few ms of store writes). */
const PENDING_LIMIT = 2000;

export interface ActorDeps {
  services: Services;
  scheduler: SchedulerLike;
  pipeline: Pipeline;
  /** TLS trust for webhook receivers (tests with self-signed certificates). */
  webhookTls?: { ca?: string | Buffer; rejectUnauthorized?: boolean };
  /** The node's drain deadline, once it shuts down (see PipelineContext). */
  shutdown$?: Observable<number>;
}

/**
 * One live call: a mailbox of inbound frames, the graph its pipeline builds, and the sinks the
 * session itself owns (webhook, metrics). Transports subscribe to `events$`/`outbound$` and then
 * call `run()`; frames pushed before that wait in order.
 */
export class SessionActor implements SessionHandle {
  // Declared first (after the constructor's three), so that the fields every frame reads share a cache line.
  private stopped = false;
  private pending: Frame[] | null = [];
  /** Every inbound frame of the call passes here: a Relay, not a Subject (see src/util/relay.ts). */
  private readonly mailbox = new Relay<Frame>();

  readonly events$: Observable<SessionEvent>;
  readonly outbound$: Observable<OutboundFrame>;
  readonly ended: Promise<void>;
  /** `ended`, plus the session's webhook posts finished or abandoned (5 s at most). */
  readonly settled: Promise<void>;

  private readonly eventsOut = new Subject<SessionEvent>();
  private readonly outboundOut = new Subject<OutboundFrame>();
  private readonly webhook: WebhookSink | null;
  private resolveEnded!: () => void;

  constructor(
    readonly id: string,
    readonly spec: SessionSpec,
    private readonly deps: ActorDeps,
  ) {
    this.events$ = this.eventsOut.asObservable();
    this.outbound$ = this.outboundOut.asObservable();
    this.ended = new Promise<void>((resolve) => (this.resolveEnded = resolve));
    this.webhook = spec.options.webhook
      ? createWebhookSink({
          url: spec.options.webhook,
          key: spec.rawKey,
          allowPrivate: deps.services.config.webhookAllowPrivate,
          log: deps.services.log.child({ session: id }),
          ...(deps.webhookTls ? { tls: deps.webhookTls } : {}),
        })
      : null;
    this.settled = this.ended.then(() => this.webhook?.idle());
  }

  push(frame: Frame): void {
    if (this.stopped) return;
    if (frame.kind === 'stop') this.stopped = true;
    if (this.pending) {
      // Before the graph runs only a burst can arrive; past the limit audio is shed, never control.
      if (this.pending.length < PENDING_LIMIT || frame.kind !== 'audio') this.pending.push(frame);
      return;
    }
    this.deliver(frame);
  }

  /**
   * A transport's sink for this session's outputs that cannot take the node down: when it throws, the
   * error is logged and this session alone ends (reason `error`, stored and announced as any end).
   */
  guard<T>(sink: (value: T) => void): (value: T) => void {
    return (value) => {
      try {
        sink(value);
      } catch (err) {
        this.deps.services.log.error({ err, session: this.id }, 'session sink failed; ending the session');
        this.end('error');
      }
    };
  }

  /** Ends the session as if the call stopped (shutdown, supervisor). */
  end(reason: EndReason): void {
    this.push({ kind: 'stop', reason });
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Builds and starts the graph. Call once, after subscribing to the outputs. */
  run(): void {
    const { services, scheduler, pipeline } = this.deps;
    const labels = { kind: this.spec.kind, protocol: this.spec.protocol };
    metrics.liveSessions.inc(labels);
    const done = () => {
      metrics.liveSessions.dec(labels);
      this.outboundOut.complete();
      this.eventsOut.complete();
      this.resolveEnded();
    };
    let out: ReturnType<Pipeline>;
    try {
      out = pipeline({
        sessionId: this.id,
        spec: this.spec,
        frames$: this.mailbox,
        ports: pipelinePorts(services),
        scheduler,
        ...(this.deps.shutdown$ ? { shutdown$: this.deps.shutdown$ } : {}),
      });
    } catch (err) {
      services.log.error({ err, session: this.id }, 'building the session graph failed');
      this.pending = null;
      return done();
    }
    out.outbound$.subscribe({
      next: (f) => this.outboundOut.next(f),
      error: (err: unknown) => {
        services.log.error({ err, session: this.id }, 'session output failed; ending the session');
        this.end('error');
      },
    });
    out.events$.subscribe({
      next: (e) => {
        metrics.eventsOut.inc({ type: e.type });
        this.webhook?.post(e);
        this.eventsOut.next(e);
      },
      error: (err: unknown) => {
        // A defect in the graph: the open record stays and is closed by recovery.
        services.log.error({ err, session: this.id }, 'session graph failed');
        done();
      },
      complete: done,
    });
    const waiting = this.pending ?? [];
    this.pending = null;
    for (const f of waiting) this.deliver(f);
  }

  private deliver(frame: Frame): void {
    if (this.mailbox.closed) return;
    this.mailbox.next(frame);
    if (frame.kind === 'stop') this.mailbox.complete();
  }
}
