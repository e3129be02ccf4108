import uws, { type TemplatedApp } from 'uWebSockets.js';
import type { Services } from '../services.js';
import { createHttpHandler } from './http/adapter.js';
import { Router } from './http/router.js';
import type { RequestLimits } from './rate-limit.js';
import type { Route } from './types.js';

export interface AppDeps {
  services: Services;
  routes: readonly Route[];
  limits: RequestLimits;
}

/**
 * The uWS app with every HTTP route behind one catch-all handler (so unknown paths and methods get the
 * JSON error shape). Socket mounts add `app.ws(...)` afterwards; uWS prefers their exact paths over the
 * catch-all, and a plain GET on a socket path falls through to it.
 */
export function createApp(deps: AppDeps): TemplatedApp {
  const app = uws.App();
  const handler = createHttpHandler({
    router: new Router(deps.routes),
    store: deps.services.store,
    limits: deps.limits,
    log: deps.services.log,
    trustProxy: deps.services.config.trustProxy,
  });
  app.any('/*', handler);
  return app;
}
