-- The one reminder of a request (docs/settings.md, "The reminder"): due when the business's
-- delay has passed, sent at most once. `sending` is written before the message leaves, so a
-- process that takes over after a crash records `unknown` instead of sending it again.
CREATE TABLE reminders (
  request_id TEXT PRIMARY KEY,
  request_row {{bigint}} NOT NULL,
  business_id {{bigint}} NOT NULL,
  due_at {{bigint}} NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'sending', 'sent', 'skipped', 'unknown', 'failed')),
  reason TEXT,
  sent_at {{bigint}},
  created_at {{bigint}} NOT NULL
) {{strict}};
CREATE INDEX reminders_sent ON reminders (business_id, sent_at);
