import type { VerdictCategory } from './categories.js';
import type { Protocol } from './events.js';
import type { Intel } from './intel.js';
import type { Level } from './levels.js';
import type { Tactic } from './tactics.js';

export type RecordKind = 'filter' | 'honeypot' | 'scan';

/** The spec's session record, plus the fields the store keeps to rebuild the verdict and intel. */
export interface SessionRecord {
  id: string;
  kind: RecordKind;
  protocol: Protocol;
  call_id?: string;
  from?: string;
  to?: string;
  persona_id?: string;
  started_at: string;
  ended_at?: string;
  duration_seconds?: number;
  turns: number;
  transcript: string;
  score: number;
  level: Level;
  category: VerdictCategory;
  summary?: string;
  intel_count: number;
  reported: boolean;
}

/** What the store holds beyond the public record. */
export interface StoredSession extends SessionRecord {
  key_id: string;
  /** `open` while a node runs it; `ended` once its final record is written. */
  state: 'open' | 'ended';
  node_id?: string;
  /** While `open`: until when its node vouches for it; past this any node may close it (ISO time). */
  lease_until?: string;
  tactics: Tactic[];
  signals: string[];
  intel: Intel;
  reported_numbers: number;
}

/** The public record: drops the store's bookkeeping fields. */
export function publicRecord(s: StoredSession): SessionRecord {
  const {
    key_id: _k,
    state: _s,
    node_id: _n,
    lease_until: _l,
    tactics: _t,
    signals: _g,
    intel: _i,
    reported_numbers: _r,
    ...rec
  } = s;
  return rec;
}
