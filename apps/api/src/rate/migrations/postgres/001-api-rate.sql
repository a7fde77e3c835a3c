-- Each key's place in its rate limit (GCRA: one theoretical arrival time per key), shared by every
-- replica. `allowed` and `at` are what the last request was told and when, read back by the same
-- UPSERT. UNLOGGED: written on every call, so it skips the WAL; a crash empties it, which only
-- gives every key its whole allowance again.
CREATE UNLOGGED TABLE api_rate (
  key_id text PRIMARY KEY,
  tat bigint NOT NULL,
  allowed integer NOT NULL CHECK (allowed IN (0, 1)),
  at bigint NOT NULL
);
CREATE INDEX api_rate_tat ON api_rate (tat);
