import uws, { type TemplatedApp, type us_listen_socket } from 'uWebSockets.js';
import { buildServices, closeServices } from './boot.js';
import type { Config } from './config.js';
import { CLOSE_LINGER_MS } from './domain/shutdown.js';
import { createLogger, type Logger } from './log.js';
import { createApp } from './server/app.js';
import { listenExclusive } from './server/listen.js';
import { lingerForConnections } from './server/linger.js';
import { listenMetrics } from './server/metrics-listener.js';
import { allMounts, type Mount, type NodeContext } from './server/mounts.js';
import { RequestLimits } from './server/rate-limit.js';
import { allRoutes } from './server/routes/index.js';
import { containUnhandledErrors } from './session/contain.js';
import { startRetention } from './store/retention.js';
import type { Route } from './server/types.js';
import type { Services } from './services.js';

export interface VoiceNode {
  /** The port actually listened on (the real one when config.port is 0). */
  port: number;
  /** The metrics listener's port, when VOICE_METRICS_PORT is set. */
  metricsPort?: number;
  services: Services;
  app: TemplatedApp;
  /** Stops accepting, drains (bounded by VOICE_DRAIN_SECONDS), closes providers and the store. Idempotent. */
  close(): Promise<void>;
}

export interface NodeOptions {
  /** Use these instead of building services from config (tests, embedding). */
  services?: Services;
  /** Extra routes besides `allRoutes`. */
  routes?: readonly Route[];
  /** Extra mounts besides `allMounts`. */
  mounts?: readonly Mount[];
  /** Hear the honeypot's voice once before listening (what `voice serve` does; see boot.ts). */
  probeVoice?: boolean;
}

/** Boots one node: services, HTTP routes, socket mounts, listen. */
export async function startNode(
  config: Config,
  log: Logger = createLogger(config.logLevel),
  opts: NodeOptions = {},
): Promise<VoiceNode> {
  containUnhandledErrors(log);
  const services = opts.services ?? (await buildServices(config, log, { probeVoice: opts.probeVoice }));
  const limits = new RequestLimits(config.rateLimitPerMinute);
  const drains: Array<() => Promise<void>> = [];
  const readies: Array<Promise<unknown>> = [];
  const ctx: NodeContext = { services, limits, onDrain: (hook) => drains.push(hook) };

  const app = createApp({ services, limits, routes: [...allRoutes(services), ...(opts.routes ?? [])] });
  for (const mount of [...allMounts(services, ctx), ...(opts.mounts ?? [])]) {
    const handle = mount(app, ctx);
    if (handle?.drain) drains.push(handle.drain.bind(handle));
    if (handle?.ready) readies.push(handle.ready);
  }

  let listenSocket: us_listen_socket;
  let metricsSocket: us_listen_socket | undefined;
  try {
    await Promise.all(readies);
    listenSocket = await listenExclusive(app, config.host, config.port, 'VOICE_PORT');
    if (config.metricsPort !== undefined) {
      metricsSocket = await listenMetrics(config.host, config.metricsPort, log).catch((err: unknown) => {
        uws.us_listen_socket_close(listenSocket);
        throw err;
      });
    }
  } catch (err) {
    // Mounts started their timers (session leases) when mounted: stop them, or the process never exits.
    await drainWithin(drains, 1000, log);
    await closeServices(services);
    throw err;
  }
  const port = uws.us_socket_local_port(listenSocket);
  const metricsPort = metricsSocket ? uws.us_socket_local_port(metricsSocket) : undefined;
  log.info({ host: config.host, port, metricsPort, node: config.nodeId }, 'listening');
  const retention = config.retentionDays ? startRetention(services.store, config.retentionDays, log) : undefined;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      uws.us_listen_socket_close(listenSocket);
      if (metricsSocket) uws.us_listen_socket_close(metricsSocket);
      retention?.unsubscribe();
      log.info({ hooks: drains.length, seconds: config.drainSeconds }, 'draining');
      await drainWithin(drains, config.drainSeconds * 1000, log);
      // Exiting with a socket mid-close resets it, and the peer may lose the last events and the close frame.
      const held = await lingerForConnections(port, CLOSE_LINGER_MS);
      log.info({ connectionsStillOpen: Math.max(0, held) }, 'drained');
      await closeServices(services);
      log.info('stopped');
    })());

  return { port, metricsPort, services, app, close };
}

/** Runs every drain hook at once; whatever has not finished by the deadline is abandoned. */
async function drainWithin(hooks: ReadonlyArray<() => Promise<void>>, ms: number, log: Logger): Promise<void> {
  if (hooks.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  const all = Promise.allSettled(hooks.map((h) => h())).then((results) => {
    for (const r of results) if (r.status === 'rejected') log.warn({ err: r.reason }, 'drain hook failed');
    return 'done' as const;
  });
  const outcome = await Promise.race([all, deadline]);
  clearTimeout(timer);
  if (outcome === 'late') log.warn({ ms }, 'drain deadline passed; stopping anyway');
}
