/*
 * The honeypot's SIP entry point: a UAS on UDP and TCP. INVITE `sip:honeypot@host` with
 * X-Service-Key is answered by a persona; an INVITE to a registered SIP-firewall domain is declined,
 * handed to a persona or redirected, by the caller's complaint status and the domain's settings.
 * Every answered call is one honeypot session (protocol `sip`) fed by the call's RTP.
 */
import net from 'node:net';
import type { Logger } from '../../log.js';
import { metrics } from '../../observability/metrics.js';
import type { Services } from '../../services.js';
import { Admission } from '../../session/admission.js';
import type { Supervisor } from '../../session/supervisor.js';
import { headerParam, missingMandatory, responseTo, type SipRequest } from '../../transport/sip/message.js';
import { RFC3261_TIMERS, TransactionLayer, type ServerTransaction } from '../../transport/sip/transactions.js';
import { SipTransport, stampVia, type Flow } from '../../transport/sip/transport.js';
import type { Call } from './call.js';
import { advertisedAddress, ALLOW, type SipContext, type SipServerOptions } from './context.js';
import { ack, byeFromCaller, cancel, reinvite } from './dialog.js';
import { invite } from './invite.js';

export type { SipServerOptions } from './context.js';

/** Methods we know but do not take on this entry point: 405, not 501. */
const KNOWN_NOT_ALLOWED = new Set([
  'REGISTER',
  'SUBSCRIBE',
  'NOTIFY',
  'REFER',
  'MESSAGE',
  'INFO',
  'UPDATE',
  'PRACK',
  'PUBLISH',
]);

export class SipServer implements SipContext {
  readonly transport: SipTransport;
  readonly layer: TransactionLayer;
  readonly admission: Admission;
  readonly calls = new Map<string, Call>();
  readonly byes = new Set<Promise<void>>();
  readonly log: Logger;
  readonly advertised: string;
  readonly mediaPeers = new net.BlockList();
  accepting = true;

  constructor(
    readonly services: Services,
    readonly supervisor: Supervisor,
    readonly opts: SipServerOptions,
  ) {
    this.log = services.log.child({ component: 'sip' });
    this.admission = new Admission({
      features: services.config.features,
      store: services.store,
      personas: services.personas,
      supervisor,
      ...(opts.limits ? { limits: opts.limits } : {}),
    });
    this.transport = new SipTransport({
      host: opts.host,
      port: opts.port,
      onMessage: (m) => this.layer.receive(m),
      onError: (err, context) => this.log.debug({ err, context }, 'sip transport'),
    });
    this.layer = new TransactionLayer(this.transport, opts.timers ?? RFC3261_TIMERS, {
      onRequest: (txn) => this.request(txn),
      onCancel: (req, inv) => cancel(this, req, inv),
      onAck: (req) => ack(this, req),
    });
    this.advertised = opts.advertisedAddress ?? advertisedAddress(opts.host);
    for (const block of opts.mediaPeers ?? []) {
      const [address = '', prefix] = block.split('/');
      const type = net.isIPv6(address) ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.mediaPeers.addAddress(address, type);
      else this.mediaPeers.addSubnet(address, Number(prefix), type);
    }
  }

  get port(): number {
    return this.transport.port;
  }

  /** Live dialogs (tests and drain). */
  get activeCalls(): number {
    return this.calls.size;
  }

  async listen(): Promise<number> {
    const port = await this.transport.listen();
    this.log.info({ host: this.opts.host, port, advertised: this.advertised }, 'sip listening');
    return port;
  }

  /** Stops taking calls (503), waits for live calls to end (their sessions are drained elsewhere), closes. */
  async drain(ms: number): Promise<void> {
    this.accepting = false;
    const t0 = Date.now();
    while (this.calls.size > 0 && Date.now() - t0 < ms) await new Promise((r) => setTimeout(r, 50));
    // Give the BYEs of the calls that just ended their answer (or their time-out) before closing.
    await Promise.race([
      Promise.allSettled([...this.byes]),
      new Promise((r) => setTimeout(r, Math.max(0, ms - (Date.now() - t0)))),
    ]);
    await this.close();
  }

  async close(): Promise<void> {
    this.accepting = false;
    for (const call of [...this.calls.values()]) call.onEnd?.('local');
    this.layer.close();
    await this.transport.close();
  }

  private request(txn: ServerTransaction): void {
    const req = stamped(txn.request, txn.flow);
    const missing = missingMandatory(req);
    if (missing) return txn.send(responseTo(req, 400, { reason: `Bad Request (missing or malformed ${missing})` }));
    const inDialog = headerParam(req.headers.get('to'), 'tag') !== undefined;
    if (!inDialog && this.opts.limits) {
      const take = this.opts.limits.address(txn.flow.address);
      if (!take.ok) {
        metrics.rejected.inc({ status: '503', entry: 'sip' });
        return txn.send(
          responseTo(req, 503, {
            reason: 'Service Unavailable (rate limit exceeded)',
            headers: { 'retry-after': String(take.retryAfterSeconds) },
          }),
        );
      }
    }
    // No SIP extension is supported: a request that requires one is refused (§8.2.2.3).
    const required = req.headers.all('require');
    if (required.length && req.method !== 'CANCEL' && req.method !== 'BYE') {
      return txn.send(responseTo(req, 420, { headers: { unsupported: required.join(', ') } }));
    }
    switch (req.method) {
      case 'INVITE':
        return inDialog ? reinvite(this, txn, req) : void invite(this, txn, req);
      case 'BYE':
        return byeFromCaller(this, txn, req);
      case 'OPTIONS':
        return txn.send(
          responseTo(req, 200, {
            toTag: headerParam(req.headers.get('to'), 'tag') ? undefined : 'options',
            headers: { allow: ALLOW, accept: 'application/sdp', supported: '' },
          }),
        );
      default:
        if (KNOWN_NOT_ALLOWED.has(req.method)) return txn.send(responseTo(req, 405, { headers: { allow: ALLOW } }));
        return txn.send(responseTo(req, 501, { headers: { allow: ALLOW } }));
    }
  }
}

/** The request with `received`/`rport` stamped on its top Via, so responses carry them (§18.2.1). */
function stamped(req: SipRequest, flow: Flow): SipRequest {
  const vias = req.headers.all('via');
  if (vias.length === 0) return req;
  vias[0] = stampVia(vias[0]!, flow);
  req.headers.set('via', vias);
  return req;
}
