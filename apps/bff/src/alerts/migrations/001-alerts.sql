-- Alerts on low ratings (docs/alerts.md). Times are ms on the service's clock.

-- Each user's choice. No row: alerts off, the defaults in packages/shared/src/alerts.ts.
CREATE TABLE alert_preferences (
  user_id TEXT PRIMARY KEY,
  enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  threshold INTEGER NOT NULL CHECK (threshold BETWEEN 1 AND 5),
  channel TEXT NOT NULL CHECK (channel IN ('email', 'in_app')),
  time_zone TEXT NOT NULL,
  digest INTEGER NOT NULL CHECK (digest IN (0, 1)),
  -- When alerts were last turned on: reviews a poll started before then could already see are
  -- the user's baseline, never alerted.
  enabled_at {{bigint}},
  updated_at {{bigint}} NOT NULL
) {{strict}};

-- One row per watched location: when its last successful poll started, and its failures in a row.
CREATE TABLE alert_watches (
  location TEXT PRIMARY KEY,
  polled_at {{bigint}},
  failures INTEGER NOT NULL,
  last_error TEXT,
  updated_at {{bigint}} NOT NULL
) {{strict}};

-- Review ids a poll has seen, per location: a review is new once, whatever restarts follow.
CREATE TABLE alert_seen (
  location TEXT NOT NULL,
  review_id TEXT NOT NULL,
  seen_at {{bigint}} NOT NULL,
  PRIMARY KEY (location, review_id)
) {{strict}};

-- One alert per user and review, ever (the unique key), with what the bell and the email show.
-- email: none (in-app only or no SMTP), pending (claimed, not yet handed over), sent (the mail
-- server accepted it; not delivery), failed.
CREATE TABLE alerts (
  id {{id}},
  user_id TEXT NOT NULL,
  location TEXT NOT NULL,
  review_id TEXT NOT NULL,
  rating INTEGER NOT NULL,
  author TEXT,
  excerpt TEXT,
  review_date TEXT,
  created_at {{bigint}} NOT NULL,
  read_at {{bigint}},
  email TEXT NOT NULL CHECK (email IN ('none', 'pending', 'sent', 'failed')),
  email_error TEXT,
  UNIQUE (user_id, location, review_id)
) {{strict}};
CREATE INDEX alerts_user ON alerts (user_id, id);
