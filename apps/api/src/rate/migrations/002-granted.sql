-- How many calls the last statement let through: the rate store of packages/server (rate/sql.ts)
-- writes and reads one shape of table for every limit it counts.
ALTER TABLE api_rate ADD COLUMN granted INTEGER NOT NULL DEFAULT 0;
