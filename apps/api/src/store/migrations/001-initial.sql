-- The service's tables. Times are milliseconds since the epoch; row ids take an explicit value
-- too, so migrate-to-postgres keeps the SQLite ids.

-- Businesses: the tenant every key, request and review belongs to.
CREATE TABLE businesses (
  id {{id}},
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  -- Where the customer page sends everyone who wants to post a public review.
  review_url TEXT,
  suspended_at {{bigint}},
  created_at {{bigint}} NOT NULL
) {{strict}};

-- API keys: only the SHA-256 of the key is stored.
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  business_id {{bigint}} NOT NULL REFERENCES businesses (id),
  key_hash TEXT NOT NULL UNIQUE,
  -- The prefix and the first characters of the secret, so an operator can tell keys apart.
  display_prefix TEXT NOT NULL,
  scopes TEXT NOT NULL,
  rate_limit_per_minute INTEGER,
  created_at {{bigint}} NOT NULL,
  expires_at {{bigint}},
  revoked_at {{bigint}},
  rotated_to TEXT,
  last_used_at {{bigint}}
) {{strict}};

-- Review requests. Contacts are stored normalised (E.164, lower-cased email).
CREATE TABLE requests (
  id {{id}},
  public_id TEXT NOT NULL,
  token TEXT NOT NULL,
  business_id {{bigint}} NOT NULL REFERENCES businesses (id),
  api_key_id TEXT,
  channel TEXT NOT NULL CHECK (channel IN ('sms', 'email', 'both', 'link')),
  customer_name TEXT,
  customer_phone TEXT,
  customer_email TEXT,
  -- sending: deliveries in progress; sent: created and at least one delivery accepted (or a
  -- link); failed: every delivery failed.
  status TEXT NOT NULL CHECK (status IN ('sending', 'sent', 'failed')),
  -- The leg of a `both` request whose delivery failed ('sms', 'email'): that contact was not
  -- reached, so the frequency cap does not count it.
  failed_leg TEXT CHECK (failed_leg IN ('sms', 'email')),
  warning TEXT,
  error TEXT,
  created_at {{bigint}} NOT NULL,
  clicked_at {{bigint}},
  feedback_at {{bigint}},
  handoff_at {{bigint}},
  completed_at {{bigint}},
  opted_out_at {{bigint}}
) {{strict}};
-- Requests left mid-delivery, found at start without scanning a million rows.
CREATE INDEX requests_sending ON requests (created_at) WHERE status = 'sending';
CREATE UNIQUE INDEX requests_public_id ON requests (public_id);
CREATE UNIQUE INDEX requests_token ON requests (token);
-- Frequency cap look-ups: the latest request to a contact of one business.
CREATE INDEX requests_phone ON requests (business_id, customer_phone, created_at) WHERE customer_phone IS NOT NULL;
CREATE INDEX requests_email ON requests (business_id, customer_email, created_at) WHERE customer_email IS NOT NULL;

-- Reviews. `id` is the stable tie-break of the list order (newest first, then highest id).
CREATE TABLE reviews (
  id {{id}},
  business_id {{bigint}} NOT NULL REFERENCES businesses (id),
  rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
  status TEXT NOT NULL CHECK (status IN ('pending', 'responded', 'ignored')),
  author_name TEXT,
  text TEXT,
  -- Milliseconds since the epoch (UTC).
  review_at {{bigint}} NOT NULL,
  response_text TEXT,
  platform TEXT NOT NULL,
  -- The network's own id of a synced review, so a re-import does not duplicate it.
  external_id TEXT,
  request_id {{bigint}} REFERENCES requests (id),
  created_at {{bigint}} NOT NULL
) {{strict}};
-- Covering indexes for the list order with each filter shape (see store/reviews.ts).
CREATE INDEX reviews_list ON reviews (business_id, review_at, id, status, rating);
CREATE INDEX reviews_by_status ON reviews (business_id, status, review_at, id, rating);
CREATE INDEX reviews_by_rating ON reviews (business_id, rating, review_at, id, status);
CREATE INDEX reviews_by_status_rating ON reviews (business_id, status, rating, review_at, id);
-- One review per request link.
CREATE UNIQUE INDEX reviews_request ON reviews (request_id) WHERE request_id IS NOT NULL;
CREATE UNIQUE INDEX reviews_external ON reviews (business_id, platform, external_id) WHERE external_id IS NOT NULL;

-- Counters maintained on every review write, so `total` of any filter is a sum of at most 15
-- rows instead of a COUNT(*) over a million.
CREATE TABLE review_counts (
  business_id {{bigint}} NOT NULL,
  status TEXT NOT NULL,
  rating INTEGER NOT NULL,
  n {{bigint}} NOT NULL,
  PRIMARY KEY (business_id, status, rating)
) {{strict-without-rowid}};

-- Daily roll-ups (UTC day number = floor(ms / 86 400 000)) maintained in the same transaction as
-- the write they summarise; analytics over 365 days reads at most 365 rows per table.
CREATE TABLE review_daily (
  business_id {{bigint}} NOT NULL,
  day INTEGER NOT NULL,
  n {{bigint}} NOT NULL DEFAULT 0,
  rating_sum {{bigint}} NOT NULL DEFAULT 0,
  pending {{bigint}} NOT NULL DEFAULT 0,
  responded {{bigint}} NOT NULL DEFAULT 0,
  ignored {{bigint}} NOT NULL DEFAULT 0,
  r1 {{bigint}} NOT NULL DEFAULT 0,
  r2 {{bigint}} NOT NULL DEFAULT 0,
  r3 {{bigint}} NOT NULL DEFAULT 0,
  r4 {{bigint}} NOT NULL DEFAULT 0,
  r5 {{bigint}} NOT NULL DEFAULT 0,
  synced_n {{bigint}} NOT NULL DEFAULT 0,
  synced_rating_sum {{bigint}} NOT NULL DEFAULT 0,
  PRIMARY KEY (business_id, day)
) {{strict-without-rowid}};

CREATE TABLE review_daily_platform (
  business_id {{bigint}} NOT NULL,
  day INTEGER NOT NULL,
  platform TEXT NOT NULL,
  n {{bigint}} NOT NULL DEFAULT 0,
  PRIMARY KEY (business_id, day, platform)
) {{strict-without-rowid}};

-- Requests by the UTC day they were created (a cohort): later clicks and completions update the
-- row of the day the request was created. `both` is a reserved word in PostgreSQL: always quoted.
CREATE TABLE request_daily (
  business_id {{bigint}} NOT NULL,
  day INTEGER NOT NULL,
  total {{bigint}} NOT NULL DEFAULT 0,
  sent {{bigint}} NOT NULL DEFAULT 0,
  failed {{bigint}} NOT NULL DEFAULT 0,
  clicked {{bigint}} NOT NULL DEFAULT 0,
  completed {{bigint}} NOT NULL DEFAULT 0,
  feedback {{bigint}} NOT NULL DEFAULT 0,
  handoffs {{bigint}} NOT NULL DEFAULT 0,
  sms {{bigint}} NOT NULL DEFAULT 0,
  email {{bigint}} NOT NULL DEFAULT 0,
  "both" {{bigint}} NOT NULL DEFAULT 0,
  link {{bigint}} NOT NULL DEFAULT 0,
  PRIMARY KEY (business_id, day)
) {{strict-without-rowid}};

-- Sending allowance use per business per calendar month ('YYYY-MM', UTC).
CREATE TABLE send_usage (
  business_id {{bigint}} NOT NULL,
  month TEXT NOT NULL,
  n {{bigint}} NOT NULL,
  PRIMARY KEY (business_id, month)
) {{strict-without-rowid}};

-- Contacts who asked not to be contacted again by a business (customer page).
CREATE TABLE opt_outs (
  business_id {{bigint}} NOT NULL,
  contact TEXT NOT NULL,
  created_at {{bigint}} NOT NULL,
  PRIMARY KEY (business_id, contact)
) {{strict-without-rowid}};

-- Messages handed to the outbox delivery provider (and, for the record, to SMTP).
CREATE TABLE outbox_messages (
  id {{id}},
  request_id {{bigint}} NOT NULL REFERENCES requests (id),
  channel TEXT NOT NULL CHECK (channel IN ('sms', 'email')),
  to_addr TEXT NOT NULL,
  subject TEXT,
  body TEXT NOT NULL,
  review_link TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('accepted', 'failed')),
  error TEXT,
  created_at {{bigint}} NOT NULL
) {{strict}};
CREATE INDEX outbox_request ON outbox_messages (request_id);
CREATE INDEX outbox_to ON outbox_messages (to_addr, id);

-- Server-side secrets and markers (e.g. the review-form signing secret, the demo data marker).
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) {{strict-without-rowid}};
