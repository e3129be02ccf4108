import { readinessProbe } from '../../health/readiness.js';
import type { Services } from '../../services.js';
import { ok, type Route } from '../types.js';

/**
 * `GET /voice/health`: readiness, no key. 200 when the store and every configured provider answer; 503 naming
 * what is down otherwise, so a balancer or a Kubernetes readiness probe takes the node out of rotation.
 */
export function healthRoutes(s: Services): Route[] {
  const probe = readinessProbe(s);
  return [
    {
      method: 'GET',
      path: '/voice/health',
      auth: 'none',
      timeoutMs: 10_000,
      handle: async () => {
        const { ready, checks } = await probe();
        if (ready) return ok({ ready, checks });
        const down = Object.entries(checks)
          .filter(([, v]) => v !== 'up')
          .map(([k, v]) => `${k} (${v.replace(/^down: /, '')})`);
        return { status: 503, json: { status: 'error', message: `not ready: ${down.join(', ')} down`, ready, checks } };
      },
    },
  ];
}
