-- "Send me a test" (docs/settings.md): each test a business sent to its owner, the words as they
-- left. Not review requests: no request row, no allowance, no reminder. The rows of the last hour
-- are the hourly limit; only the newest few per business are kept (older ones are deleted as new
-- ones are written). The development outbox lists them, marked as tests.
CREATE TABLE settings_test_sends (
  id {{id-always}},
  business_id {{bigint}} NOT NULL,
  channel TEXT NOT NULL CHECK (channel IN ('sms', 'email')),
  to_addr TEXT NOT NULL,
  subject TEXT,
  body TEXT NOT NULL,
  review_link TEXT NOT NULL,
  -- sending: reserved, being handed to the carrier; then as the carrier answered.
  status TEXT NOT NULL CHECK (status IN ('sending', 'sent', 'failed', 'unknown')),
  error TEXT,
  created_at {{bigint}} NOT NULL
) {{strict}};
CREATE INDEX settings_test_sends_recent ON settings_test_sends (business_id, created_at DESC);
