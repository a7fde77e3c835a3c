-- Each dashboard user's share of the upstream key's rate limit (GCRA: one theoretical arrival
-- time per user). `allowed` is what the last request was told, read back by the same UPSERT.
-- UNLOGGED: written on every upstream call, so it skips the WAL and its flush at commit; a crash
-- empties it, which only gives every user a whole share again.
CREATE UNLOGGED TABLE user_rate (
  user_id text PRIMARY KEY,
  tat bigint NOT NULL,
  allowed integer NOT NULL CHECK (allowed IN (0, 1))
);
CREATE INDEX user_rate_tat ON user_rate (tat);
