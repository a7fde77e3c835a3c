-- Each dashboard user's share of the upstream key's rate limit (GCRA: one theoretical arrival
-- time per user). `allowed` is what the last request was told, read back by the same UPSERT.
-- UNLOGGED (PostgreSQL): written on every upstream call, so it skips the WAL and its flush at
-- commit; a crash empties it, which only gives every user a whole share again.
CREATE {{unlogged}} TABLE user_rate (
  user_id TEXT PRIMARY KEY,
  tat {{bigint}} NOT NULL,
  allowed INTEGER NOT NULL CHECK (allowed IN (0, 1))
) {{strict}};
CREATE INDEX user_rate_tat ON user_rate (tat);
