-- A list sent over days (docs/bulk.md, "At most N a day"): the cap, and the time zone whose wall
-- clock counts the days, fixed when the list is stored.
ALTER TABLE bulk_jobs ADD COLUMN daily_cap INTEGER;
ALTER TABLE bulk_jobs ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';
