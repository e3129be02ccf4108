import type { TemplatedApp, WebSocket } from 'uWebSockets.js';
import { metrics } from '../observability/metrics.js';
import { authenticate, presentedKey } from '../server/auth.js';
import type { Mount, NodeContext } from '../server/types.js';
import type { Services } from '../services.js';
import type { Supervisor } from '../session/supervisor.js';
import { ConsoleFeed, type ConsoleMessage } from './feed.js';

interface Watcher {
  keyId: string;
  stop?: () => void;
}

/** Console sockets queue at most this much unsent data; a console that cannot keep up is closed. */
const MAX_BACKPRESSURE = 1024 * 1024;

/**
 * `GET /console/stream?key=` (WebSocket): the live feed of the operator console. On open it sends a
 * `snapshot` of the key's live and recently ended sessions on this node, then every new session
 * (`session`), each of their events (`event`) and their ends (`closed`). It only reads; messages
 * from the browser are ignored.
 */
export function consoleMount(services: Services, supervisor: Supervisor): Mount {
  return (app: TemplatedApp, node: NodeContext) => {
    const feed = new ConsoleFeed(supervisor.opened$);
    app.ws<Watcher>('/console/stream', {
      maxPayloadLength: 4 * 1024,
      idleTimeout: 120,
      sendPingsAutomatically: true,
      maxBackpressure: MAX_BACKPRESSURE,
      upgrade: (res, req, context) => {
        const query = new URLSearchParams(req.getQuery() ?? '');
        const rawKey = presentedKey({ 'x-auth': req.getHeader('x-auth') }, query, 'header-or-query');
        const secKey = req.getHeader('sec-websocket-key');
        const secProtocol = req.getHeader('sec-websocket-protocol');
        const secExtensions = req.getHeader('sec-websocket-extensions');
        const ip = Buffer.from(res.getRemoteAddressAsText()).toString('utf8');
        let aborted = false;
        res.onAborted(() => (aborted = true));
        const refuse = (status: string, message: string) => {
          if (aborted) return;
          res.cork(() =>
            res
              .writeStatus(status)
              .writeHeader('content-type', 'application/json')
              .end(JSON.stringify({ status: 'error', message }), true),
          );
        };
        const byAddress = node.limits.address(ip);
        if (!byAddress.ok) {
          metrics.rejected.inc({ status: '429', entry: 'console_stream' });
          return refuse('429 Too Many Requests', 'rate limit exceeded; retry later');
        }
        void authenticate(services.store, rawKey).then(
          (key) => {
            if (!key)
              return refuse('401 Unauthorized', rawKey ? 'key: wrong key' : 'key: missing (key query parameter)');
            if (aborted) return;
            res.cork(() => res.upgrade<Watcher>({ keyId: key.id }, secKey, secProtocol, secExtensions, context));
          },
          (err: unknown) => {
            services.log.error({ err }, 'console upgrade failed');
            refuse('500 Internal Server Error', 'internal error');
          },
        );
      },
      open: (ws: WebSocket<Watcher>) => {
        const w = ws.getUserData();
        const send = (m: ConsoleMessage): void => {
          if (ws.getBufferedAmount() > MAX_BACKPRESSURE) return void ws.end(1013, 'console too slow');
          ws.send(JSON.stringify(m), false);
        };
        send({ type: 'snapshot', sessions: feed.snapshot(w.keyId) });
        w.stop = feed.watch(w.keyId, (m) => ws.cork(() => send(m)));
      },
      message: () => undefined,
      close: (ws: WebSocket<Watcher>) => ws.getUserData().stop?.(),
    });
  };
}
