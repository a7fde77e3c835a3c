-- The weekly digest: one row per user and week (the local date of its Monday), written before
-- the email is handed over, so a digest is sent at most once per user and week whatever restarts,
-- retries or other processes do. state: sending, sent (the mail server accepted it), failed.
CREATE TABLE alert_digests (
  user_id TEXT NOT NULL,
  week TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('sending', 'sent', 'failed')),
  figures TEXT,
  error TEXT,
  created_at {{bigint}} NOT NULL,
  sent_at {{bigint}},
  PRIMARY KEY (user_id, week)
) {{strict}};
