/**
 * Schema steps, applied in order; `PRAGMA user_version` records how many ran.
 * Never edit a shipped step: append a new one.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE keys (
    id         TEXT PRIMARY KEY,
    hash       TEXT NOT NULL UNIQUE,
    label      TEXT NOT NULL,
    credits    INTEGER NOT NULL CHECK (credits >= 0),
    created_at TEXT NOT NULL
  );

  CREATE TABLE sessions (
    id         TEXT PRIMARY KEY,
    key_id     TEXT NOT NULL,
    started_at TEXT NOT NULL,
    state      TEXT NOT NULL,
    node_id    TEXT,
    doc        TEXT NOT NULL
  );
  CREATE INDEX sessions_by_key ON sessions (key_id, started_at DESC);
  CREATE INDEX sessions_open ON sessions (state, node_id);

  CREATE TABLE complaints (
    id         TEXT PRIMARY KEY,
    number     TEXT NOT NULL,
    session_id TEXT NOT NULL,
    key_id     TEXT NOT NULL,
    subject    TEXT NOT NULL,
    comment    TEXT NOT NULL,
    filed_at   TEXT NOT NULL,
    UNIQUE (number, session_id)
  );
  CREATE INDEX complaints_by_time ON complaints (filed_at);

  CREATE TABLE domains (
    id         TEXT PRIMARY KEY,
    key_id     TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    doc        TEXT NOT NULL
  );
  `,
  // Key lifecycle: expiry, revocation, last use.
  `
  ALTER TABLE keys ADD COLUMN expires_at TEXT;
  ALTER TABLE keys ADD COLUMN revoked_at TEXT;
  ALTER TABLE keys ADD COLUMN last_used_at TEXT;
  `,
  // Leases: any node may close an open session whose node stopped renewing it.
  `
  ALTER TABLE sessions ADD COLUMN lease_until TEXT;
  CREATE INDEX sessions_lease ON sessions (state, lease_until);
  `,
];
