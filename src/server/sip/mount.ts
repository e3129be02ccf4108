/*
 * The SIP entry point as a node mount: listens on VOICE_SIP_HOST:VOICE_SIP_PORT (UDP and TCP) when
 * SIP is enabled, shares the node's supervisor (one capacity count for sockets and calls), and on
 * shutdown refuses new calls, lets live ones end with BYE, then closes.
 */
import type { Mount } from '../types.js';
import type { Services } from '../../services.js';
import type { Supervisor } from '../../session/supervisor.js';
import { SipServer, type SipServerOptions } from './uas.js';

/** Server options from the node's config. */
export function sipOptions(services: Services): SipServerOptions {
  const c = services.config;
  return {
    host: c.sipHost,
    port: c.sipPort,
    rtpPorts: c.sipRtpPorts ?? { min: 10000, max: 20000 },
    rtpTimeoutMs: c.sipRtpTimeoutSeconds * 1000,
    ...(c.sipMediaPeers?.length ? { mediaPeers: c.sipMediaPeers } : {}),
    ...(c.sipPublicAddress ? { advertisedAddress: c.sipPublicAddress } : {}),
  };
}

export function sipMount(services: Services, supervisor: Supervisor): Mount {
  return (_app, node) => {
    if (!services.config.sipEnabled) return;
    const server = new SipServer(services, supervisor, { ...sipOptions(services), limits: node.limits });
    const ready = server.listen();
    return {
      ready,
      drain: async () => {
        await ready.catch(() => undefined);
        await server.drain(services.config.drainSeconds * 1000);
      },
    };
  };
}
