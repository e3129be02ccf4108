import type { HttpResponse as UwsResponse } from 'uWebSockets.js';

/**
 * The client's address for rate limits and logs. Read synchronously, inside the uWS handler.
 * Only with `trustProxy` (a load balancer in front) are proxy-supplied addresses believed: a client
 * talking to the node directly could otherwise pick its own rate-limit bucket.
 */
export function clientAddress(
  res: UwsResponse,
  forwardedFor: string | undefined,
  trustProxy: boolean | undefined,
): string {
  const socket = text(res.getRemoteAddressAsText());
  if (!trustProxy) return socket;
  const proxied = text(res.getProxiedRemoteAddressAsText());
  if (proxied) return proxied;
  // The balancer appends the address it saw; entries before it are whatever the client claimed.
  const last = forwardedFor?.split(',').pop()?.trim();
  return last || socket;
}

function text(buf: ArrayBuffer): string {
  return Buffer.from(buf).toString('utf8');
}
