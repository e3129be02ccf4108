/**
 * Which providers are failing, from the calls the node makes anyway. Three failed calls in a row mark a
 * provider down; a success marks it up. A down mark lapses 30 s after its last failure, because a node
 * taken out of rotation gets no calls that could show the provider is back.
 */
export const DOWN_AFTER_FAILURES = 3;
export const DOWN_FOR_MS = 30_000;

interface Tally {
  failures: number;
  lastFailureAt: number;
}

export class ProviderHealth {
  private readonly tallies = new Map<string, Tally>();

  record(provider: string, ok: boolean, now: number): void {
    if (ok) {
      this.tallies.delete(provider);
      return;
    }
    const t = this.tallies.get(provider) ?? { failures: 0, lastFailureAt: now };
    t.failures++;
    t.lastFailureAt = now;
    this.tallies.set(provider, t);
  }

  /** Why the provider counts as down now, or undefined when it does not. */
  down(provider: string, now: number): string | undefined {
    const t = this.tallies.get(provider);
    if (!t || t.failures < DOWN_AFTER_FAILURES || now - t.lastFailureAt > DOWN_FOR_MS) return undefined;
    return `${t.failures} calls failed in a row`;
  }
}

/** The node's own: fed where provider calls are timed (observability/instrument.ts). */
export const providerHealth = new ProviderHealth();
