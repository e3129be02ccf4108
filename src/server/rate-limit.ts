/**
 * Token buckets per client identity (an API key id or a remote address). Each bucket holds up to
 * `perMinute` tokens and refills continuously, so a client may burst to its minute's allowance and then
 * proceeds at the steady rate. Sockets use the same limiter at upgrade time.
 */
export type Clock = () => number;

export type Take = { ok: true } | { ok: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;
  private lastSweep: number;

  constructor(
    readonly perMinute: number,
    private readonly now: Clock = Date.now,
    /** Idle buckets are refilled anyway, so forgetting them after this long changes nothing. */
    private readonly sweepEveryMs = 60_000,
  ) {
    if (!(perMinute > 0)) throw new RangeError('perMinute must be positive');
    this.perMs = perMinute / 60_000;
    this.lastSweep = now();
  }

  take(id: string, cost = 1): Take {
    const t = this.now();
    this.sweep(t);
    const b = this.buckets.get(id) ?? { tokens: this.perMinute, at: t };
    b.tokens = Math.min(this.perMinute, b.tokens + (t - b.at) * this.perMs);
    b.at = t;
    this.buckets.set(id, b);
    if (b.tokens >= cost) {
      b.tokens -= cost;
      return { ok: true };
    }
    const waitMs = (cost - b.tokens) / this.perMs;
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  /** Number of buckets held (for tests and metrics). */
  get size(): number {
    return this.buckets.size;
  }

  private sweep(t: number): void {
    if (t - this.lastSweep < this.sweepEveryMs) return;
    this.lastSweep = t;
    const fullAfter = 60_000;
    for (const [id, b] of this.buckets) if (t - b.at >= fullAfter) this.buckets.delete(id);
  }
}

/** The node's two limits: per remote address (checked before auth) and per key (after auth). */
export class RequestLimits {
  readonly byAddress: RateLimiter;
  readonly byKey: RateLimiter;

  constructor(perMinute: number, now: Clock = Date.now) {
    this.byAddress = new RateLimiter(perMinute, now);
    this.byKey = new RateLimiter(perMinute, now);
  }

  address(ip: string): Take {
    return this.byAddress.take(ip);
  }

  key(keyId: string): Take {
    return this.byKey.take(keyId);
  }
}
