-- A request's legs gain a third kind: `reply`, the business's private answer to the review the
-- customer left through the request (docs/api.md, "Answering reviews"). One reply leg per
-- channel: a replaced reply's message takes the row of the one before.
-- sqlite:
-- SQLite cannot change a CHECK in place: the table is rebuilt with its rows.
CREATE TABLE delivery_legs_next (
  request_id TEXT NOT NULL REFERENCES delivery_requests (request_id),
  channel TEXT NOT NULL CHECK (channel IN ('sms', 'email')),
  kind TEXT NOT NULL DEFAULT 'request' CHECK (kind IN ('request', 'reminder', 'reply')),
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
  SELECT request_id, channel, kind, business_id, provider, to_addr, sender, provider_message_id, state, error_code, error, segments, updated_at
  FROM delivery_legs;
DROP TABLE delivery_legs;
ALTER TABLE delivery_legs_next RENAME TO delivery_legs;
CREATE UNIQUE INDEX delivery_legs_message ON delivery_legs (provider_message_id) WHERE provider_message_id IS NOT NULL;
CREATE INDEX delivery_legs_recipient ON delivery_legs (to_addr, updated_at DESC) WHERE channel = 'sms';
-- end
-- postgres:
ALTER TABLE delivery_legs DROP CONSTRAINT delivery_legs_kind_check;
ALTER TABLE delivery_legs ADD CONSTRAINT delivery_legs_kind_check CHECK (kind IN ('request', 'reminder', 'reply'));
-- end
