import { expect } from 'chai';
import uws, { type us_listen_socket } from 'uWebSockets.js';
import type { Feature } from '../../src/config.js';
import { createApp } from '../../src/server/app.js';
import { hashKey } from '../../src/server/auth.js';
import { RequestLimits } from '../../src/server/rate-limit.js';
import { SipServer } from '../../src/server/sip/uas.js';
import { liveSockets } from '../../src/server/sockets.js';
import type { Services } from '../../src/services.js';
import { Supervisor } from '../../src/session/supervisor.js';
import type { SipResponse } from '../../src/transport/sip/message.js';
import { startSipHarness, type SipHarness } from '../fixtures/sipp/harness.js';
import { newIds, offerSdp, request, SipPeer } from '../fixtures/sipp/peer.js';
import { openLive, send, waitFor } from './helpers/live-client.js';

/**
 * One admission path: the same cases through the honeypot socket and through SIP (a real server, real
 * SIP over UDP) end in the same outcome class, each in its entry's wire form.
 */
type Outcome = 'admitted' | 'unauthorized' | 'payment' | 'rate_limited' | 'unavailable' | 'bad_option';

interface Case {
  name: string;
  key: 'none' | 'wrong' | 'good' | 'poor';
  features?: Feature[];
  capacity?: number;
  /** The key's per-minute allowance is spent before the call. */
  keySpent?: boolean;
  persona?: string;
  expect: Outcome;
}

const CASES: readonly Case[] = [
  { name: 'no key', key: 'none', expect: 'unauthorized' },
  { name: 'a wrong key', key: 'wrong', expect: 'unauthorized' },
  { name: 'the honeypot off', key: 'good', features: ['scan', 'live_filter'], expect: 'unavailable' },
  { name: 'a key that cannot pay the first minute', key: 'poor', expect: 'payment' },
  { name: 'a node at its session limit', key: 'good', capacity: 0, expect: 'unavailable' },
  { name: 'a key past its rate limit', key: 'good', keySpent: true, expect: 'rate_limited' },
  { name: 'an unknown persona', key: 'good', persona: 'nobody-by-that-name', expect: 'bad_option' },
  { name: 'a known persona', key: 'good', persona: 'walter', expect: 'admitted' },
];

const POOR_KEY = 'poor_admission_0123456789';

describe('admission: the same cases through the socket and SIP entry points', function () {
  this.timeout(60_000);
  let h: SipHarness;
  let keyId: string;

  before(async () => {
    h = await startSipHarness();
    keyId = (await h.server.services.store.keys.findByHash(hashKey(h.server.key)))!.id;
    await h.server.services.store.keys.create({
      id: 'poor-admission',
      hash: hashKey(POOR_KEY),
      label: 'poor',
      credits: 3,
      created_at: new Date().toISOString(),
    });
  });
  after(async () => {
    await h.close();
  });

  /** The node as the case sets it up: its features, its capacity, and the key's rate-limit bucket. */
  function node(c: Case): { services: Services; limits: RequestLimits; supervisor: Supervisor } {
    const base = h.server.services;
    const services = c.features ? { ...base, config: { ...base.config, features: new Set(c.features) } } : base;
    const limits = new RequestLimits(1000);
    if (c.keySpent) expect(limits.byKey.take(keyId, 1000).ok).to.equal(true);
    const supervisor = new Supervisor(services, c.capacity === undefined ? {} : { capacity: c.capacity });
    return { services, limits, supervisor };
  }

  const keyOf = (c: Case): string | undefined =>
    ({ none: undefined, wrong: 'not-a-key-at-all', good: h.server.key, poor: POOR_KEY })[c.key];

  async function throughSocket(c: Case): Promise<Outcome> {
    const { services, limits } = node(c);
    const app = createApp({ services, limits, routes: [] });
    const sockets = liveSockets(services, c.capacity === undefined ? {} : { capacity: c.capacity });
    const handle = sockets.mount(app, { services, limits, onDrain: () => undefined });
    const listening = await new Promise<us_listen_socket>((resolve, reject) =>
      app.listen('127.0.0.1', 0, (s) => (s ? resolve(s) : reject(new Error('cannot listen')))),
    );
    try {
      const query = new URLSearchParams();
      const key = keyOf(c);
      if (key) query.set('key', key);
      if (c.persona) query.set('persona', c.persona);
      const url = `ws://127.0.0.1:${uws.us_socket_local_port(listening)}/voice/honeypot/stream?${query}`;
      const run = await openLive(url).catch((e: { status?: number }) => e);
      if (!('ws' in run)) return byHttpStatus(run.status);
      send(run, { type: 'start', call_id: `adm-${c.name}`, encoding: 'mulaw', sample_rate: 8000 });
      const outcome = await Promise.race([
        waitFor(run, 'session.started').then((): Outcome => 'admitted'),
        run.closed.then(({ code, reason }): Outcome => {
          expect(code, reason).to.equal(1008);
          if (reason === 'invalid start: unknown persona') return 'bad_option';
          throw new Error(`unexpected close: ${reason}`);
        }),
      ]);
      run.ws.close();
      return outcome;
    } finally {
      if (handle) await handle.drain?.();
      uws.us_listen_socket_close(listening);
    }
  }

  async function throughSip(c: Case): Promise<Outcome> {
    const { services, limits, supervisor } = node(c);
    const sip = new SipServer(services, supervisor, {
      host: '127.0.0.1',
      port: 0,
      rtpPorts: { min: 0, max: 0 },
      rtpTimeoutMs: 10_000,
      timers: { t1: 100, t2: 400, t4: 500 },
      limits,
    });
    await sip.listen();
    const peer = await SipPeer.udp({ host: '127.0.0.1', port: sip.port });
    try {
      const uri = `sip:honeypot@127.0.0.1:${sip.port}`;
      const headers: Record<string, string> = {};
      const key = keyOf(c);
      if (key) headers['X-Service-Key'] = key;
      if (c.persona) headers['X-Persona'] = c.persona;
      const ids = newIds();
      peer.send(request({ method: 'INVITE', uri, ids, peer, headers, body: offerSdp(40000) }));
      const res = await peer.finalResponse('INVITE');
      if (res.status === 200) {
        const toTag = /;tag=([^;\s]+)/.exec(res.headers.get('to') ?? '')![1]!;
        peer.send(request({ method: 'ACK', uri, ids: { ...ids, branch: `${ids.branch}ack` }, peer, toTag }));
        peer.send(request({ method: 'BYE', uri, ids: { ...ids, cseq: 2, branch: `${ids.branch}bye` }, peer, toTag }));
        await peer.finalResponse('BYE');
      }
      return bySipResponse(res);
    } finally {
      peer.close();
      await supervisor.drain(5000);
      await sip.close();
    }
  }

  for (const c of CASES) {
    it(`${c.name}: ${c.expect} on both entries`, async () => {
      const socket = await throughSocket(c);
      const sip = await throughSip(c);
      expect({ socket, sip }).to.deep.equal({ socket: c.expect, sip: c.expect });
    });
  }
});

function byHttpStatus(status: number | undefined): Outcome {
  const outcomes: Record<number, Outcome> = {
    400: 'bad_option',
    401: 'unauthorized',
    402: 'payment',
    429: 'rate_limited',
    503: 'unavailable',
  };
  const outcome = status === undefined ? undefined : outcomes[status];
  if (!outcome) throw new Error(`unexpected upgrade status ${status}`);
  return outcome;
}

/** SIP has no 401 or 429: a key is refused with 403, a rate limit with 503 that says so and a Retry-After. */
function bySipResponse(res: SipResponse): Outcome {
  switch (res.status) {
    case 200:
      return 'admitted';
    case 400:
      expect(res.reason).to.include('X-Persona');
      return 'bad_option';
    case 402:
      return 'payment';
    case 403:
      return 'unauthorized';
    case 503:
      if (!/rate limit/.test(res.reason)) return 'unavailable';
      expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
      return 'rate_limited';
    default:
      throw new Error(`unexpected SIP answer ${res.status} ${res.reason}`);
  }
}
