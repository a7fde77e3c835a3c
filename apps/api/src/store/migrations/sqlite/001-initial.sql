-- Businesses: the tenant every key, request and review belongs to.
CREATE TABLE businesses (
  id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  -- Where the customer page sends everyone who wants to post a public review.
  review_url TEXT,
  suspended_at INTEGER,
  created_at INTEGER NOT NULL
) STRICT;

-- API keys: only the SHA-256 of the key is stored.
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  business_id INTEGER NOT NULL REFERENCES businesses (id),
  key_hash TEXT NOT NULL UNIQUE,
  -- The prefix and the first characters of the secret, so an operator can tell keys apart.
  display_prefix TEXT NOT NULL,
  scopes TEXT NOT NULL,
  rate_limit_per_minute INTEGER,
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  revoked_at INTEGER,
  rotated_to TEXT,
  last_used_at INTEGER
) STRICT;

-- Review requests. Contacts are stored normalised (E.164, lower-cased email).
CREATE TABLE requests (
  id INTEGER PRIMARY KEY,
  public_id TEXT NOT NULL,
  token TEXT NOT NULL,
  business_id INTEGER NOT NULL REFERENCES businesses (id),
  api_key_id TEXT,
  channel TEXT NOT NULL CHECK (channel IN ('sms', 'email', 'both', 'link')),
  customer_name TEXT,
  customer_phone TEXT,
  customer_email TEXT,
  -- sending: deliveries in progress; sent: created and at least one delivery accepted (or a
  -- link); failed: every delivery failed.
  status TEXT NOT NULL CHECK (status IN ('sending', 'sent', 'failed')),
  -- The legs of a `both` request whose delivery failed ('sms', 'email'): that contact was not
  -- reached, so the frequency cap does not count it.
  failed_leg TEXT CHECK (failed_leg IN ('sms', 'email')),
  warning TEXT,
  error TEXT,
  created_at INTEGER NOT NULL,
  clicked_at INTEGER,
  feedback_at INTEGER,
  handoff_at INTEGER,
  completed_at INTEGER,
  opted_out_at INTEGER
) STRICT;
-- Requests left mid-delivery, found at start without scanning a million rows.
CREATE INDEX requests_sending ON requests (created_at) WHERE status = 'sending';
CREATE UNIQUE INDEX requests_public_id ON requests (public_id);
CREATE UNIQUE INDEX requests_token ON requests (token);
-- Frequency cap look-ups: the latest request to a contact of one business.
CREATE INDEX requests_phone ON requests (business_id, customer_phone, created_at) WHERE customer_phone IS NOT NULL;
CREATE INDEX requests_email ON requests (business_id, customer_email, created_at) WHERE customer_email IS NOT NULL;

-- Reviews. `id` is the stable tie-break of the list order (newest first, then highest id).
CREATE TABLE reviews (
  id INTEGER PRIMARY KEY,
  business_id INTEGER NOT NULL REFERENCES businesses (id),
  rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
  status TEXT NOT NULL CHECK (status IN ('pending', 'responded', 'ignored')),
  author_name TEXT,
  text TEXT,
  -- Milliseconds since the epoch (UTC).
  review_at INTEGER NOT NULL,
  response_text TEXT,
  platform TEXT NOT NULL,
  -- The network's own id of a synced review, so a re-import does not duplicate it.
  external_id TEXT,
  request_id INTEGER REFERENCES requests (id),
  created_at INTEGER NOT NULL
) STRICT;
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
  business_id INTEGER NOT NULL,
  status TEXT NOT NULL,
  rating INTEGER NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (business_id, status, rating)
) STRICT, WITHOUT ROWID;

-- Daily roll-ups (UTC day number = floor(ms / 86 400 000)) maintained in the same transaction as
-- the write they summarise; analytics over 365 days reads at most 365 rows per table.
CREATE TABLE review_daily (
  business_id INTEGER NOT NULL,
  day INTEGER NOT NULL,
  n INTEGER NOT NULL DEFAULT 0,
  rating_sum INTEGER NOT NULL DEFAULT 0,
  pending INTEGER NOT NULL DEFAULT 0,
  responded INTEGER NOT NULL DEFAULT 0,
  ignored INTEGER NOT NULL DEFAULT 0,
  r1 INTEGER NOT NULL DEFAULT 0,
  r2 INTEGER NOT NULL DEFAULT 0,
  r3 INTEGER NOT NULL DEFAULT 0,
  r4 INTEGER NOT NULL DEFAULT 0,
  r5 INTEGER NOT NULL DEFAULT 0,
  synced_n INTEGER NOT NULL DEFAULT 0,
  synced_rating_sum INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (business_id, day)
) STRICT, WITHOUT ROWID;

CREATE TABLE review_daily_platform (
  business_id INTEGER NOT NULL,
  day INTEGER NOT NULL,
  platform TEXT NOT NULL,
  n INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (business_id, day, platform)
) STRICT, WITHOUT ROWID;

-- Requests by the UTC day they were created (a cohort): later clicks and completions update the
-- row of the day the request was created.
CREATE TABLE request_daily (
  business_id INTEGER NOT NULL,
  day INTEGER NOT NULL,
  total INTEGER NOT NULL DEFAULT 0,
  sent INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  clicked INTEGER NOT NULL DEFAULT 0,
  completed INTEGER NOT NULL DEFAULT 0,
  feedback INTEGER NOT NULL DEFAULT 0,
  handoffs INTEGER NOT NULL DEFAULT 0,
  sms INTEGER NOT NULL DEFAULT 0,
  email INTEGER NOT NULL DEFAULT 0,
  both INTEGER NOT NULL DEFAULT 0,
  link INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (business_id, day)
) STRICT, WITHOUT ROWID;

-- Sending allowance use per business per calendar month ('YYYY-MM', UTC).
CREATE TABLE send_usage (
  business_id INTEGER NOT NULL,
  month TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (business_id, month)
) STRICT, WITHOUT ROWID;

-- Contacts who asked not to be contacted again by a business (customer page).
CREATE TABLE opt_outs (
  business_id INTEGER NOT NULL,
  contact TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (business_id, contact)
) STRICT, WITHOUT ROWID;

-- Messages handed to the outbox delivery provider (and, for the record, to SMTP).
CREATE TABLE outbox_messages (
  id INTEGER PRIMARY KEY,
  request_id INTEGER NOT NULL REFERENCES requests (id),
  channel TEXT NOT NULL CHECK (channel IN ('sms', 'email')),
  to_addr TEXT NOT NULL,
  subject TEXT,
  body TEXT NOT NULL,
  review_link TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('accepted', 'failed')),
  error TEXT,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX outbox_request ON outbox_messages (request_id);
CREATE INDEX outbox_to ON outbox_messages (to_addr, id);

-- Server-side secrets and markers (e.g. the review-form signing secret, the demo seed marker).
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT, WITHOUT ROWID;
