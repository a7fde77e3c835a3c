-- A day's request roll-up is kept in up to 16 rows (slots) that add up to the day. Every send
-- counts itself in its day's row inside its own transaction; with one row per day, concurrent
-- sends from every replica queued on that row's lock until each one committed. A send now adds
-- to one slot picked at random, so they rarely meet; readers sum the slots.
ALTER TABLE request_daily ADD COLUMN slot integer NOT NULL DEFAULT 0;
ALTER TABLE request_daily DROP CONSTRAINT request_daily_pkey;
ALTER TABLE request_daily ADD PRIMARY KEY (business_id, day, slot);
