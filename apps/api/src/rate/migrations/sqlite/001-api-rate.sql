-- Each key's place in its rate limit, for a service on PostgreSQL (on SQLite one process serves
-- the file and counts in memory; the table stays empty). Same columns on both engines.
CREATE TABLE api_rate (
  key_id TEXT PRIMARY KEY,
  tat INTEGER NOT NULL,
  allowed INTEGER NOT NULL CHECK (allowed IN (0, 1)),
  at INTEGER NOT NULL
) STRICT;
CREATE INDEX api_rate_tat ON api_rate (tat);
