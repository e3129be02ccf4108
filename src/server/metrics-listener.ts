import uws, { type us_listen_socket } from 'uWebSockets.js';
import { listenExclusive } from './listen.js';
import type { Logger } from '../log.js';
import { registry } from '../observability/metrics.js';

/**
 * Prometheus metrics on their own port, so operational data never shares the public listener.
 * Resolves to the listen socket (close it with `us_listen_socket_close`).
 */
export function listenMetrics(host: string, port: number, log: Logger): Promise<us_listen_socket> {
  const app = uws.App();
  app.get('/metrics', (res) => {
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    registry.metrics().then(
      (text) => {
        if (aborted) return;
        res.cork(() => {
          res.writeHeader('Content-Type', registry.contentType).end(text);
        });
      },
      (err: unknown) => {
        log.error({ err }, 'metrics failed');
        if (aborted) return;
        res.cork(() => {
          res.writeStatus('500 Internal Server Error').end();
        });
      },
    );
  });
  app.any('/*', (res) => {
    res.writeStatus('404 Not Found').end();
  });
  return listenExclusive(app, host, port, 'VOICE_METRICS_PORT');
}
