-- The one reminder of a request (docs/settings.md, "The reminder"): due when the business's
-- delay has passed, sent at most once. `sending` is written before the message leaves, so a
-- process that takes over after a crash records `unknown` instead of sending it again.
CREATE TABLE reminders (
  request_id TEXT PRIMARY KEY,
  request_row BIGINT NOT NULL,
  business_id BIGINT NOT NULL,
  due_at BIGINT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'sending', 'sent', 'skipped', 'unknown', 'failed')),
  reason TEXT,
  sent_at BIGINT,
  created_at BIGINT NOT NULL
);
CREATE INDEX reminders_sent ON reminders (business_id, sent_at);
