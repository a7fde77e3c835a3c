-- The BFF's own tables: users, sessions, login throttling and the send journal. Times are
-- milliseconds since the epoch. (Before numbered migrations this schema was version 1 of SQLite's
-- `PRAGMA user_version`; such a database is taken over.)
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) {{strict}};

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  role TEXT NOT NULL CHECK (role IN ('owner', 'manager', 'staff')),
  password_hash TEXT NOT NULL,
  created_at {{bigint}} NOT NULL,
  updated_at {{bigint}} NOT NULL,
  last_login_at {{bigint}}
) {{strict}};

-- The cookie carries a random id; only its SHA-256 is stored, so a copy of the database does not
-- hold usable sessions.
CREATE TABLE sessions (
  id_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at {{bigint}} NOT NULL,
  last_seen_at {{bigint}} NOT NULL
) {{strict}};
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE login_failures (
  bucket TEXT PRIMARY KEY,
  failures INTEGER NOT NULL,
  window_start {{bigint}} NOT NULL
) {{strict}};

CREATE TABLE sends (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  sent_by TEXT NOT NULL,
  idem_key TEXT,
  fingerprint TEXT NOT NULL,
  channel TEXT NOT NULL,
  customer_name TEXT,
  contact_masked TEXT NOT NULL,
  phone_hash TEXT,
  email_hash TEXT,
  outcome TEXT NOT NULL CHECK (outcome IN ('in_flight', 'sent', 'warning', 'failed', 'unknown')),
  http_status INTEGER,
  request_id TEXT,
  status TEXT,
  review_link TEXT,
  warning TEXT,
  error TEXT,
  response_type TEXT,
  response_body {{bytes}},
  owner_pid INTEGER,
  created_at {{bigint}} NOT NULL,
  finished_at {{bigint}}
) {{strict}};
-- The journal is keyed by user + idempotency key. The key is released (set to NULL) when its
-- retention ends or when the attempt definitely sent nothing.
CREATE UNIQUE INDEX sends_idem ON sends(user_id, idem_key) WHERE idem_key IS NOT NULL;
CREATE INDEX sends_created ON sends(created_at DESC);
CREATE INDEX sends_phone ON sends(phone_hash, created_at DESC) WHERE phone_hash IS NOT NULL;
CREATE INDEX sends_email ON sends(email_hash, created_at DESC) WHERE email_hash IS NOT NULL;
CREATE INDEX sends_in_flight ON sends(outcome) WHERE outcome = 'in_flight';
