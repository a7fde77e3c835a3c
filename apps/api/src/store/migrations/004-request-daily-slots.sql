-- A day's request roll-up is kept in up to 16 rows (slots) that add up to the day
-- (store/request-rollup.ts). Every send counts itself in its day's row inside its own
-- transaction; with one row per day, concurrent sends on PostgreSQL (from every replica) queued
-- on that row's lock until each one committed. A send there adds to a slot picked at random;
-- readers sum the slots. SQLite has one writer at a time and always writes slot 0.
-- postgres:
ALTER TABLE request_daily ADD COLUMN slot INTEGER NOT NULL DEFAULT 0;
ALTER TABLE request_daily DROP CONSTRAINT request_daily_pkey;
ALTER TABLE request_daily ADD PRIMARY KEY (business_id, day, slot);
-- end
-- sqlite:
-- SQLite cannot change a primary key in place: the table is rebuilt, its rows kept as slot 0.
CREATE TABLE request_daily_next (
  business_id INTEGER NOT NULL,
  day INTEGER NOT NULL,
  total INTEGER NOT NULL DEFAULT 0,
  sent INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  clicked INTEGER NOT NULL DEFAULT 0,
  completed INTEGER NOT NULL DEFAULT 0,
  feedback INTEGER NOT NULL DEFAULT 0,
  handoffs INTEGER NOT NULL DEFAULT 0,
  sms INTEGER NOT NULL DEFAULT 0,
  email INTEGER NOT NULL DEFAULT 0,
  "both" INTEGER NOT NULL DEFAULT 0,
  link INTEGER NOT NULL DEFAULT 0,
  slot INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (business_id, day, slot)
) STRICT, WITHOUT ROWID;
INSERT INTO request_daily_next SELECT *, 0 FROM request_daily;
DROP TABLE request_daily;
ALTER TABLE request_daily_next RENAME TO request_daily;
-- end
