import type { TemplatedApp } from 'uWebSockets.js';
import type { Services } from '../services.js';
import type { RequestLimits } from './rate-limit.js';
import { liveSockets } from './sockets.js';
import { sipMount } from '../transport/sip/mount.js';
import { consoleMount } from '../console/mount.js';

/** What a socket mount gets from the node it is mounted on. */
export interface NodeContext {
  services: Services;
  /** The node's HTTP rate limits; upgrades take from the same buckets. */
  limits: RequestLimits;
  /** Registers work the node awaits on shutdown (bounded by VOICE_DRAIN_SECONDS), after it stops accepting. */
  onDrain(hook: () => Promise<void>): void;
}

/** A mount may also return its drain hook instead of registering it. */
export interface MountHandle {
  drain?(): Promise<void>;
  /** Settles once the mount's own listeners are up (SIP); the node fails to start when it rejects. */
  ready?: Promise<unknown>;
}

/** Adds WebSocket (or other non-route) entry points to the app. */
export type Mount = (app: TemplatedApp, ctx: NodeContext) => MountHandle | void;

/** Every socket mount of a node. Add a mount with one line. */
export function allMounts(s: Services, _node: NodeContext): Mount[] {
  const live = liveSockets(s);
  // SIP calls share the sockets' supervisor: one capacity count per node.
  return [live.mount, sipMount(s, live.supervisor), consoleMount(s, live.supervisor)];
}
