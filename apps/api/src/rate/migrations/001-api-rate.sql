-- Each key's place in its rate limit (GCRA: one theoretical arrival time per key), for a service on
-- PostgreSQL, shared by every replica (on SQLite one process serves the file and counts in memory;
-- the table stays empty). Same columns on both engines. `allowed` and `at` are what the last
-- request was told and when, read back by the same UPSERT. UNLOGGED: written on every call, so it
-- skips the WAL; a crash empties it, which only gives every key its whole allowance again.
CREATE {{unlogged}} TABLE api_rate (
  key_id TEXT PRIMARY KEY,
  tat {{bigint}} NOT NULL,
  allowed INTEGER NOT NULL CHECK (allowed IN (0, 1)),
  at {{bigint}} NOT NULL
) {{strict}};
CREATE INDEX api_rate_tat ON api_rate (tat);
