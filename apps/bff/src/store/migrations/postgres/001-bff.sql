-- The BFF's own tables: users, sessions, login throttling and the send journal. Times are
-- milliseconds since the epoch (bigint), as in the SQLite schema.
CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);

CREATE TABLE users (
  id text PRIMARY KEY,
  email text NOT NULL UNIQUE,
  role text NOT NULL CHECK (role IN ('owner', 'manager', 'staff')),
  password_hash text NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  last_login_at bigint
);

-- The cookie carries a random id; only its SHA-256 is stored, so a copy of the database does not
-- hold usable sessions.
CREATE TABLE sessions (
  id_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at bigint NOT NULL,
  last_seen_at bigint NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE login_failures (
  bucket text PRIMARY KEY,
  failures integer NOT NULL,
  window_start bigint NOT NULL
);

CREATE TABLE sends (
  id text PRIMARY KEY,
  user_id text NOT NULL,
  sent_by text NOT NULL,
  idem_key text,
  fingerprint text NOT NULL,
  channel text NOT NULL,
  customer_name text,
  contact_masked text NOT NULL,
  phone_hash text,
  email_hash text,
  outcome text NOT NULL CHECK (outcome IN ('in_flight', 'sent', 'warning', 'failed', 'unknown')),
  http_status integer,
  request_id text,
  status text,
  review_link text,
  warning text,
  error text,
  response_type text,
  response_body bytea,
  owner_pid integer,
  created_at bigint NOT NULL,
  finished_at bigint
);
-- The journal is keyed by user + idempotency key. The key is released (set to NULL) when its
-- retention ends or when the attempt definitely sent nothing.
CREATE UNIQUE INDEX sends_idem ON sends(user_id, idem_key) WHERE idem_key IS NOT NULL;
CREATE INDEX sends_created ON sends(created_at DESC);
CREATE INDEX sends_phone ON sends(phone_hash, created_at DESC) WHERE phone_hash IS NOT NULL;
CREATE INDEX sends_email ON sends(email_hash, created_at DESC) WHERE email_hash IS NOT NULL;
CREATE INDEX sends_in_flight ON sends(outcome) WHERE outcome = 'in_flight';
