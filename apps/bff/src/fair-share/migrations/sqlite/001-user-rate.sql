-- Each dashboard user's share of the upstream key's rate limit (GCRA: one theoretical arrival
-- time per user). `allowed` is what the last request was told, read back by the same UPSERT.
CREATE TABLE user_rate (
  user_id TEXT PRIMARY KEY,
  tat INTEGER NOT NULL,
  allowed INTEGER NOT NULL CHECK (allowed IN (0, 1))
) STRICT;
CREATE INDEX user_rate_tat ON user_rate (tat);
