/*
 * The HTTP upgrade of a live socket: the address's rate limit, then admission (feature, capacity slot,
 * key, the key's rate limit, first-minute credits). A refusal is an HTTP error; an admitted socket
 * upgrades holding its ticket and waits for its start.
 */
import type { HttpRequest as UwsRequest, HttpResponse as UwsResponse, us_socket_context_t } from 'uWebSockets.js';
import { Subject } from 'rxjs';
import type { SessionKind } from '../../domain/events.js';
import { metrics } from '../../observability/metrics.js';
import type { Services } from '../../services.js';
import type { Admission, Credentials, Ticket } from '../../session/admission.js';
import { urlOptions } from '../../session/options.js';
import { verifiedVendor } from '../../transport/vendor-signature.js';
import { presentedKey } from '../auth.js';
import type { NodeContext } from '../types.js';
import type { Conn, KeylessPool } from './conn.js';
import { upgradeRefusal, type UpgradeRefusal } from './refusals.js';

export interface UpgradeDeps {
  services: Services;
  node: NodeContext;
  admission: Admission;
  keyless: KeylessPool;
}

export function upgrade(
  kind: SessionKind,
  res: UwsResponse,
  req: UwsRequest,
  context: us_socket_context_t,
  deps: UpgradeDeps,
): void {
  const { services, node, admission, keyless } = deps;
  // Everything from `req` now: it is invalid after this function returns.
  const rawQuery = req.getQuery() ?? '';
  const query = new URLSearchParams(rawQuery);
  const headers = { 'x-auth': req.getHeader('x-auth') };
  const all: Record<string, string> = {};
  req.forEach((k, v) => (all[k] = v));
  const signedBy = verifiedVendor(
    { headers: all, path: req.getUrl(), query: rawQuery, publicUrl: services.config.publicUrl },
    services.config,
    Date.now(),
  );
  const secKey = req.getHeader('sec-websocket-key');
  const secProtocol = req.getHeader('sec-websocket-protocol');
  const secExtensions = req.getHeader('sec-websocket-extensions');
  const ip = Buffer.from(res.getRemoteAddressAsText()).toString('utf8');
  const entry = `${kind}_stream`;

  let aborted = false;
  res.onAborted(() => (aborted = true));
  const refuse = (r: UpgradeRefusal) => {
    if (r.status.startsWith('429') || r.status.startsWith('503')) {
      metrics.rejected.inc({ status: r.status.slice(0, 3), entry });
    }
    if (aborted) return;
    res.cork(() => {
      res.writeStatus(r.status).writeHeader('content-type', 'application/json');
      for (const [k, v] of Object.entries(r.headers)) res.writeHeader(k, v);
      res.end(JSON.stringify({ status: 'error', message: r.message }), true);
    });
  };

  const byAddress = node.limits.address(ip);
  if (!byAddress.ok) {
    return refuse(
      upgradeRefusal({ status: 429, cause: 'rate_limited', retryAfterSeconds: byAddress.retryAfterSeconds }),
    );
  }
  const rawKey = presentedKey(headers, query, 'header-or-query');
  // Vendor A drops query strings from stream URLs: its upgrade, signed with the account's secret, may
  // wait for the key in the start event's stream parameters (docs/vendors.md). Any other keyless
  // upgrade is refused: a signature header that no configured secret verifies proves nothing.
  const credentials: Credentials = !rawKey && signedBy ? { deferred: true } : { presented: rawKey };

  let ticket: Ticket | null = null;
  void (async () => {
    const admitted = await admission.admit(kind, credentials, urlOptions(query));
    if (!admitted.ok) return refuse(upgradeRefusal(admitted.refusal));
    ticket = admitted.value;
    if (aborted) return ticket.release();
    const deferred = ticket.key === null;
    if (deferred && keyless.pending >= keyless.max) {
      ticket.release();
      return refuse({
        status: '503 Service Unavailable',
        message: 'node at its limit of keyless vendor sockets; retry on a new connection',
        headers: {},
      });
    }
    if (deferred) keyless.pending++;
    const conn: Conn = {
      phase: 'waiting',
      serializer: null,
      session: null,
      early: [],
      kind,
      ticket,
      started$: new Subject<void>(),
      timer: null,
      sink: null,
      closed: false,
      ws: null,
      keyless: deferred ? keyless : null,
      closeWith: null,
    };
    res.cork(() => res.upgrade(conn, secKey, secProtocol, secExtensions, context));
  })().catch((err: unknown) => {
    ticket?.release();
    services.log.error({ err }, 'socket upgrade failed');
    refuse({ status: '500 Internal Server Error', message: 'internal error', headers: {} });
  });
}
