import type { StoredSession } from '../domain/session.js';
import type { VerdictCategory } from '../domain/categories.js';

export interface KeyRecord {
  id: string;
  /** SHA-256 hex of the key; the key itself is never stored. */
  hash: string;
  label: string;
  credits: number;
  created_at: string;
  /** After this instant the key is refused; absent: it does not expire. */
  expires_at?: string;
  /** Set by `voice keys revoke`; a revoked key is refused on every node within `KNOWN_KEY_TTL_MS`. */
  revoked_at?: string;
  /** Last time a node looked the key up in the store (at most once per node per `KNOWN_KEY_TTL_MS`). */
  last_used_at?: string;
}

export interface Complaint {
  id: string;
  number: string;
  session_id: string;
  key_id: string;
  subject: Exclude<VerdictCategory, 'none'>;
  comment: string;
  filed_at: string;
}

export interface NumberStatus {
  number: string;
  reported: boolean;
  complaints: number;
  categories: string[];
  first_seen?: string;
  last_seen?: string;
}

export interface Domain {
  id: string;
  key_id: string;
  spam_action: 'decline' | 'honeypot';
  /** SIP URI clean calls are forwarded (redirected) to. */
  forward_uri?: string;
  persona?: string;
  webhook?: string;
  /** Signs webhook posts of the domain's honeypot calls (the API key itself is never stored). */
  webhook_secret?: string;
  updated_at: string;
}

export interface KeysPort {
  create(rec: KeyRecord): Promise<void>;
  findByHash(hash: string): Promise<KeyRecord | null>;
  list(): Promise<KeyRecord[]>;
  /** Adds credits (may be negative for corrections, never below zero). Returns the new balance. */
  credit(keyId: string, credits: number): Promise<number>;
  /** Atomically takes `credits` if the balance allows it; false (and nothing taken) otherwise. */
  debit(keyId: string, credits: number): Promise<boolean>;
  balance(keyId: string): Promise<number>;
  /** Marks the key revoked at `at` (kept as the first revocation); false when there is no such key. */
  revoke(keyId: string, at: string): Promise<boolean>;
  /** Records that the key was used at `at`. */
  touch(keyId: string, at: string): Promise<void>;
}

export interface SessionsPort {
  /** Writes or replaces a whole record (idempotent by id; used for open and final writes). */
  put(session: StoredSession): Promise<void>;
  get(id: string): Promise<StoredSession | null>;
  /** Newest first, by `started_at`. */
  listByKey(keyId: string, limit: number): Promise<StoredSession[]>;
  /** Sessions a node left `open` (for closing them after a crash). */
  listOpen(nodeId: string): Promise<StoredSession[]>;
  /** Removes one record; false when there was none. */
  delete(id: string): Promise<boolean>;
  /** Removes ended sessions that started before `before` (ISO time); open ones are kept. Returns how many. */
  purgeEnded(before: string): Promise<number>;
  /** Moves the lease of those of these sessions still `open` to `until` (their node is alive and runs them). */
  renewLeases(ids: readonly string[], until: string): Promise<void>;
  /** `open` sessions whose lease ran out before `now` (their node stopped renewing), oldest lease first. */
  listExpired(now: string, limit: number): Promise<StoredSession[]>;
  /**
   * Writes `closed` over its record only while that record is still `open` with a lease that ran out before
   * `now`; false (nothing written) when its node ended or renewed it meanwhile, or another node closed it.
   */
  closeExpired(closed: StoredSession, now: string): Promise<boolean>;
}

export interface ComplaintsPort {
  /** One complaint per number per session: a second file for the same pair is a no-op returning false. */
  file(c: Complaint): Promise<boolean>;
  status(number: string): Promise<NumberStatus>;
  /** Filed numbers whose last complaint is after `since`, oldest first, for device block lists. */
  feed(since: string, limit: number): Promise<NumberStatus[]>;
}

export interface DomainsPort {
  put(d: Domain): Promise<void>;
  get(id: string): Promise<Domain | null>;
}

export interface Store {
  readonly kind: 'embedded' | 'mongodb';
  keys: KeysPort;
  sessions: SessionsPort;
  complaints: ComplaintsPort;
  domains: DomainsPort;
  /** Cheap liveness probe used by the journal to know when to replay. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
