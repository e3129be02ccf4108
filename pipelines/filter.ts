import { EMPTY } from 'rxjs';
import { LIVE_PROFILES } from './live/profile.js';
import { liveSession } from './live/session.js';
import type { Pipeline } from './types.js';

/**
 * The live filter: listens, scores, warns through `verdict` events, and never speaks
 * (no outbound audio, ever).
 */
export const filterPipeline: Pipeline = (ctx) => ({
  events$: liveSession(ctx, LIVE_PROFILES.filter),
  outbound$: EMPTY,
});
