import net from 'node:net';

export interface Link {
  /** The port clients connect to instead of the target's. */
  port: number;
  /** Cuts the link: every connection reset, new ones refused. */
  down(): void;
  /** Restores it on the same port. */
  up(): Promise<void>;
  close(): void;
}

/** A TCP relay to a local service (a store, a provider) that a test can cut and restore. */
export async function cuttableLink(target: number): Promise<Link> {
  const conns = new Set<net.Socket>();
  let server: net.Server;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((c) => {
        const s = net.connect(target, '127.0.0.1');
        conns.add(c).add(s);
        c.pipe(s).pipe(c);
        const drop = () => {
          c.destroy();
          s.destroy();
          conns.delete(c);
          conns.delete(s);
        };
        c.on('error', drop).on('close', drop);
        s.on('error', drop).on('close', drop);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  await listen();
  const down = () => {
    server.close();
    for (const c of conns) c.resetAndDestroy();
    conns.clear();
  };
  return {
    get port() {
      return port;
    },
    down,
    up: listen,
    close: down,
  };
}
