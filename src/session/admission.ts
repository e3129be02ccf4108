/*
 * Who may open a live session, decided once for every entry point (raw and vendor sockets, SIP). An
 * entry presents credentials at the door and gets a Ticket (a capacity slot and, once known, the key) or
 * a typed Refusal; the ticket then checks the session's options and opens it. Each entry renders a
 * refusal in its own wire form (HTTP status on an upgrade, a close reason, a SIP status).
 */
import { LIVE_PROFILES } from '../../pipelines/live/profile.js';
import type { Feature } from '../config.js';
import type { Protocol, SessionKind } from '../domain/events.js';
import type { Persona } from '../honeypot/types.js';
import { findPersona } from '../honeypot/personas.js';
import { authenticate } from '../server/auth.js';
import type { KeyRecord, Store } from '../store/types.js';
import type { StartInfo } from '../transport/types.js';
import type { SessionActor } from './actor.js';
import { mergeOptions } from './options.js';
import { InsufficientCreditsError, type Supervisor } from './supervisor.js';
import type { Reservation, SessionOptions } from './types.js';

/** Why a session was refused; `status` is its outcome class in HTTP terms. */
export type Refusal =
  | { status: 400; cause: 'unknown_persona'; option: 'persona' }
  | { status: 401; cause: 'key_missing' | 'key_wrong' }
  | { status: 402; cause: 'no_credits'; price: number }
  | { status: 429; cause: 'rate_limited'; retryAfterSeconds: number }
  | { status: 503; cause: 'feature_off'; feature: Feature }
  | { status: 503; cause: 'node_full' };

export type Admitted<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

export type Credentials =
  /** An API key as presented (X-Auth, `key=`, X-Service-Key); undefined when none was. */
  | { presented: string | undefined }
  /** A key the node holds for the caller (a registered SIP domain's); `signingKey` signs its webhooks. */
  | { owner: KeyRecord; signingKey: string }
  /** A signed vendor upgrade: its key comes with the start event and is checked by `Ticket.identify`. */
  | { deferred: true };

export interface AdmissionDeps {
  features: ReadonlySet<Feature>;
  store: Store;
  personas: readonly Persona[];
  supervisor: Pick<Supervisor, 'hasPipeline' | 'reserve' | 'open'>;
  /** The per-key request limit (the node's, shared with HTTP); an entry mounted without limits has none. */
  limits?: { key(keyId: string): { ok: true } | { ok: false; retryAfterSeconds: number } };
}

const FEATURE: Readonly<Record<SessionKind, Feature>> = { filter: 'live_filter', honeypot: 'honeypot' };

const ok = <T>(value: T): Admitted<T> => ({ ok: true, value });
const no = <T>(refusal: Refusal): Admitted<T> => ({ ok: false, refusal });

export class Admission {
  constructor(private readonly deps: AdmissionDeps) {}

  /**
   * The door: the feature is on, a capacity slot is free (taken before any await, so a burst cannot
   * overshoot), the key is valid, within its rate limit and able to pay the first minute. Options
   * known here (URL query, SIP headers) are kept for `Ticket.options`.
   */
  async admit(
    kind: SessionKind,
    credentials: Credentials,
    options: Readonly<Record<string, string | undefined>>,
  ): Promise<Admitted<Ticket>> {
    const feature = FEATURE[kind];
    if (!this.deps.features.has(feature) || !this.deps.supervisor.hasPipeline(kind)) {
      return no({ status: 503, cause: 'feature_off', feature });
    }
    const reservation = this.deps.supervisor.reserve();
    if (!reservation) return no({ status: 503, cause: 'node_full' });
    const ticket = new Ticket(this.deps, kind, reservation, options);
    try {
      const refusal =
        'deferred' in credentials
          ? null
          : 'owner' in credentials
            ? await ticket.own(credentials.owner, credentials.signingKey)
            : await ticket.identify(credentials.presented);
      if (!refusal) return ok(ticket);
      ticket.release();
      return no(refusal);
    } catch (err) {
      ticket.release();
      throw err;
    }
  }
}

/** An admitted caller: a capacity slot held until the session ends or the ticket is released. */
export class Ticket {
  private owner: { key: KeyRecord; signingKey: string } | null = null;

  constructor(
    private readonly deps: AdmissionDeps,
    readonly kind: SessionKind,
    private readonly reservation: Reservation,
    private readonly doorOptions: Readonly<Record<string, string | undefined>>,
  ) {}

  /** Null until a deferred ticket's key has been identified. */
  get key(): KeyRecord | null {
    return this.owner?.key ?? null;
  }

  /** The first minute's price with these options. */
  price(options: Pick<SessionOptions, 'tracksBoth'>): number {
    return LIVE_PROFILES[this.kind].minutePrice(options.tracksBoth);
  }

  /**
   * Authenticates a presented key (a deferred ticket's, from its start event) and takes from its rate
   * limit; null once it passes.
   */
  async identify(presented: string | undefined): Promise<Refusal | null> {
    if (!presented) return { status: 401, cause: 'key_missing' };
    const key = await authenticate(this.deps.store, presented);
    if (!key) return { status: 401, cause: 'key_wrong' };
    const take = this.deps.limits?.key(key.id) ?? { ok: true };
    if (!take.ok) return { status: 429, cause: 'rate_limited', retryAfterSeconds: take.retryAfterSeconds };
    return this.own(key, presented);
  }

  /**
   * The key's balance against the first minute (charged only when the session opens). A key the node
   * holds (a SIP domain's) is not rate-limited here: its calls are strangers', not requests of its holder.
   */
  async own(key: KeyRecord, signingKey: string): Promise<Refusal | null> {
    // Priced as the door's options say; a start that asks for more is refused when the session opens.
    const price = this.price(mergeOptions(this.kind, this.doorOptions, {}));
    if ((await this.deps.store.keys.balance(key.id)) < price) return { status: 402, cause: 'no_credits', price };
    this.owner = { key, signingKey };
    return null;
  }

  /** The door's options merged with the start's (which win); an unknown persona is refused. */
  options(params: Readonly<Record<string, string>> = {}): Admitted<SessionOptions> {
    const options = mergeOptions(this.kind, this.doorOptions, params);
    if (options.persona !== undefined && !findPersona(this.deps.personas, options.persona)) {
      return no({ status: 400, cause: 'unknown_persona', option: 'persona' });
    }
    return ok(options);
  }

  /**
   * Charges the first minute and opens the session (not yet running: `Supervisor.start` runs it). The slot
   * goes with the session, or is released when it cannot open.
   */
  async open(protocol: Protocol, start: StartInfo, options: SessionOptions): Promise<Admitted<SessionActor>> {
    if (!this.owner) throw new Error('a ticket opens a session only once its key is known');
    const spec = { kind: this.kind, protocol, key: this.owner.key, rawKey: this.owner.signingKey, start, options };
    try {
      return ok(await this.deps.supervisor.open(spec, this.reservation));
    } catch (err) {
      this.reservation.release();
      if (err instanceof InsufficientCreditsError) return no({ status: 402, cause: 'no_credits', price: err.price });
      throw err;
    }
  }

  /** Gives the slot back without a session (refused, cancelled, gone). Idempotent. */
  release(): void {
    this.reservation.release();
  }
}
