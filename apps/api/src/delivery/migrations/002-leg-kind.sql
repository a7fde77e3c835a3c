-- A request's legs gain a kind: `request` (the messages of the send) or `reminder` (the one
-- automatic reminder, docs/settings.md "The reminder"), so a request can hold an SMS of each.
-- The rows already there are the sends' own (`request`).
-- sqlite:
-- SQLite cannot change a primary key in place: the table is rebuilt, its rows kept as `request`.
CREATE TABLE delivery_legs_next (
  request_id TEXT NOT NULL REFERENCES delivery_requests (request_id),
  channel TEXT NOT NULL CHECK (channel IN ('sms', 'email')),
  kind TEXT NOT NULL DEFAULT 'request' CHECK (kind IN ('request', 'reminder')),
  business_id INTEGER NOT NULL,
  provider TEXT NOT NULL,
  to_addr TEXT NOT NULL,
  sender TEXT,
  provider_message_id TEXT,
  state TEXT NOT NULL CHECK (state IN ('scheduled', 'queued', 'sent', 'delivered', 'undelivered', 'failed', 'unknown')),
  error_code TEXT,
  error TEXT,
  segments INTEGER,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (request_id, channel, kind)
) STRICT;
INSERT INTO delivery_legs_next
  (request_id, channel, kind, business_id, provider, to_addr, sender, provider_message_id, state, error_code, error, segments, updated_at)
  SELECT request_id, channel, 'request', business_id, provider, to_addr, sender, provider_message_id, state, error_code, error, segments, updated_at
  FROM delivery_legs;
DROP TABLE delivery_legs;
ALTER TABLE delivery_legs_next RENAME TO delivery_legs;
CREATE UNIQUE INDEX delivery_legs_message ON delivery_legs (provider_message_id) WHERE provider_message_id IS NOT NULL;
CREATE INDEX delivery_legs_recipient ON delivery_legs (to_addr, updated_at DESC) WHERE channel = 'sms';
-- end
-- postgres:
ALTER TABLE delivery_legs
  ADD COLUMN kind text NOT NULL DEFAULT 'request' CHECK (kind IN ('request', 'reminder'));
ALTER TABLE delivery_legs DROP CONSTRAINT delivery_legs_pkey;
ALTER TABLE delivery_legs ADD PRIMARY KEY (request_id, channel, kind);
-- end
