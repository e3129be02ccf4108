import uws, { type us_listen_socket } from 'uWebSockets.js';
import { createApp } from '../../../src/server/app.js';
import { RequestLimits } from '../../../src/server/rate-limit.js';
import { allRoutes } from '../../../src/server/routes/index.js';
import { liveSockets, type LiveSocketOptions, type LiveSockets } from '../../../src/server/sockets.js';
import type { Services } from '../../../src/services.js';

export interface LiveApp {
  wsUrl: string;
  url: string;
  sockets: LiveSockets;
  close(): Promise<void>;
}

/**
 * A second listener on a test server's services whose socket entry points take options the
 * deployment does not expose (short start timeouts, trust for a self-signed webhook receiver).
 */
export async function startLiveApp(services: Services, opts: LiveSocketOptions): Promise<LiveApp> {
  const limits = new RequestLimits(100_000);
  const app = createApp({ services, limits, routes: allRoutes(services) });
  const sockets = liveSockets(services, opts);
  sockets.mount(app, { services, limits, onDrain: () => undefined });
  const socket = await new Promise<us_listen_socket>((resolve, reject) =>
    app.listen('127.0.0.1', 0, (s) => (s ? resolve(s) : reject(new Error('cannot listen')))),
  );
  const port = uws.us_socket_local_port(socket);
  return {
    wsUrl: `ws://127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}`,
    sockets,
    close: async () => {
      await sockets.supervisor.drain(5000);
      uws.us_listen_socket_close(socket);
    },
  };
}
