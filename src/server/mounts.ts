import type { Services } from '../services.js';
import { liveSockets } from './sockets.js';
import { sipMount } from './sip/mount.js';
import { consoleMount } from '../console/mount.js';
import type { Mount, NodeContext } from './types.js';

// The node boots from this module; the mount types live in ./types.js so that mounts need not import it.
export type { Mount, MountHandle, NodeContext } from './types.js';

/** Every socket mount of a node. Add a mount with one line. */
export function allMounts(s: Services, _node: NodeContext): Mount[] {
  const live = liveSockets(s);
  // SIP calls share the sockets' supervisor: one capacity count per node.
  return [live.mount, sipMount(s, live.supervisor), consoleMount(s, live.supervisor)];
}
