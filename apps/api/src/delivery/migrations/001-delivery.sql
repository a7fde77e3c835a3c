-- What happened to each review request's messages, as the carriers tell it.

-- One row per request with a message or a link (request_id is the send's requestId; id orders them). status:
-- scheduled (held for sending hours), sending, sent, failed, unknown (see docs/api.md).
CREATE TABLE delivery_requests (
  id {{id-always}},
  request_id TEXT NOT NULL UNIQUE,
  business_id {{bigint}} NOT NULL,
  channel TEXT NOT NULL CHECK (channel IN ('sms', 'email', 'both', 'link')),
  status TEXT NOT NULL CHECK (status IN ('scheduled', 'sending', 'sent', 'failed', 'unknown')),
  scheduled_for {{bigint}},
  created_at {{bigint}} NOT NULL,
  updated_at {{bigint}} NOT NULL
) {{strict}};
CREATE INDEX delivery_requests_newest ON delivery_requests (business_id, created_at DESC, id DESC);
CREATE INDEX delivery_requests_status ON delivery_requests (business_id, status, created_at DESC, id DESC);

-- One row per message (leg): the SMS and/or the email of a request.
CREATE TABLE delivery_legs (
  request_id TEXT NOT NULL REFERENCES delivery_requests (request_id),
  channel TEXT NOT NULL CHECK (channel IN ('sms', 'email')),
  business_id {{bigint}} NOT NULL,
  provider TEXT NOT NULL,
  to_addr TEXT NOT NULL,
  -- Who sent it (the Twilio number or Messaging Service), to find the business a reply is for.
  sender TEXT,
  -- The carrier's id (Twilio's MessageSid), named by its receipts.
  provider_message_id TEXT,
  state TEXT NOT NULL CHECK (state IN ('scheduled', 'queued', 'sent', 'delivered', 'undelivered', 'failed', 'unknown')),
  error_code TEXT,
  error TEXT,
  segments INTEGER,
  updated_at {{bigint}} NOT NULL,
  PRIMARY KEY (request_id, channel)
) {{strict}};
CREATE UNIQUE INDEX delivery_legs_message ON delivery_legs (provider_message_id) WHERE provider_message_id IS NOT NULL;
CREATE INDEX delivery_legs_recipient ON delivery_legs (to_addr, updated_at DESC) WHERE channel = 'sms';

-- Phones that texted STOP (opted_out = 1) or START again (0), per business.
CREATE TABLE sms_opt_outs (
  business_id {{bigint}} NOT NULL,
  phone TEXT NOT NULL,
  opted_out INTEGER NOT NULL CHECK (opted_out IN (0, 1)),
  updated_at {{bigint}} NOT NULL,
  PRIMARY KEY (business_id, phone)
) {{strict-without-rowid}};
