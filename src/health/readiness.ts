/*
 * Readiness: whether this node can do its work now (GET /voice/health), for load balancers and Kubernetes
 * readiness probes. Liveness stays on /voice/capabilities: a node that is alive but not ready should be
 * taken out of rotation, not restarted.
 */
import type { Services } from '../services.js';
import { providerHealth } from './provider-health.js';

export interface Readiness {
  ready: boolean;
  /** `up`, or `down: <why>`, for the store and each configured provider. */
  checks: Record<string, string>;
}

export interface ReadinessOptions {
  /** Longest a store ping or a provider reachability check may take before it counts as down. */
  timeoutMs?: number;
  /** A result is reused this long, so frequent probes from several balancers cost one check. */
  cacheMs?: number;
}

function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

const why = (e: unknown): string => `down: ${e instanceof Error ? e.message : String(e)}`;

/** A remote HTTP provider is reachable when it answers at all (any status): its calls report the rest. */
async function reachable(url: string, ms: number): Promise<string> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(ms) });
    await res.body?.cancel();
    return 'up';
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code;
    return why(cause ? new Error(`${url} unreachable (${cause})`) : e);
  }
}

export function readinessProbe(s: Services, opts: ReadinessOptions = {}): () => Promise<Readiness> {
  const timeoutMs = opts.timeoutMs ?? 2000;
  const cacheMs = opts.cacheMs ?? 1000;
  let last: { at: number; result: Promise<Readiness> } | undefined;

  const check = async (): Promise<Readiness> => {
    const now = Date.now();
    const checks: Record<string, Promise<string>> = {
      store: within(s.store.ping(), timeoutMs, 'the store').then(() => 'up', why),
    };
    const providers = { llm: s.llm, stt: s.stt, tts: s.config.features.has('honeypot') ? s.tts : null };
    for (const [role, p] of Object.entries(providers)) {
      if (!p) continue;
      const failing = providerHealth.down(p.id, now);
      checks[role] = Promise.resolve(failing ? `down: ${failing}` : 'up');
    }
    const { llm, stt, openaiBaseUrl, whisperUrl } = s.config;
    if (llm === 'openai' && openaiBaseUrl && s.llm) checks.llm = both(checks.llm!, reachable(openaiBaseUrl, timeoutMs));
    if (stt === 'whisper' && whisperUrl && s.stt) checks.stt = both(checks.stt!, reachable(whisperUrl, timeoutMs));
    const settled = Object.fromEntries(await Promise.all(Object.entries(checks).map(async ([k, v]) => [k, await v])));
    return { ready: Object.values(settled).every((v) => v === 'up'), checks: settled };
  };

  return () => {
    const now = Date.now();
    if (!last || now - last.at >= cacheMs) last = { at: now, result: check() };
    return last.result;
  };
}

/** The first `down` of two checks of one provider, else `up`. */
async function both(a: Promise<string>, b: Promise<string>): Promise<string> {
  const [x, y] = await Promise.all([a, b]);
  return x !== 'up' ? x : y;
}
