-- The time the last statement counted at: the rate store of packages/server (rate/sql.ts) writes
-- and reads one shape of table for every limit it counts.
ALTER TABLE user_rate ADD COLUMN at {{bigint}} NOT NULL DEFAULT 0;
