import type { TemplatedApp, us_listen_socket } from 'uWebSockets.js';

/** uWS's `LIBUS_LISTEN_EXCLUSIVE_PORT` (its `ListenOptions` enum exists only in the typings). */
const EXCLUSIVE_PORT = 1;

type ListenWithOptions = (
  host: string,
  port: number,
  options: number,
  cb: (socket: us_listen_socket | false) => void,
) => TemplatedApp;

/** The port could not be taken: reported by `voice serve` as one line naming the variable, not a trace. */
export class ListenError extends Error {
  override name = 'ListenError';
}

/**
 * Listens without SO_REUSEPORT, which uWS sets by default: a second node started on a port already taken
 * would otherwise start silently and share its traffic, whatever its own configuration. The binding takes
 * `(host, port, options, cb)`; the typings list options only without a host.
 */
export function listenExclusive(
  app: TemplatedApp,
  host: string,
  port: number,
  variable: string,
): Promise<us_listen_socket> {
  return new Promise((resolve, reject) => {
    (app.listen as unknown as ListenWithOptions).call(app, host, port, EXCLUSIVE_PORT, (socket) => {
      if (socket) resolve(socket);
      else reject(new ListenError(`${variable}: cannot listen on ${host}:${port} (the port is in use)`));
    });
  });
}
