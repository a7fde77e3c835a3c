-- A day's request roll-up may be kept in several rows (slots) that add up to the day, so that on
-- PostgreSQL concurrent sends do not all queue on one row's lock. SQLite has one writer at a
-- time and always writes slot 0; the column is here so both engines keep one schema.
CREATE TABLE request_daily_slots (
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
  both INTEGER NOT NULL DEFAULT 0,
  link INTEGER NOT NULL DEFAULT 0,
  slot INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (business_id, day, slot)
) STRICT, WITHOUT ROWID;
INSERT INTO request_daily_slots
  SELECT business_id, day, total, sent, failed, clicked, completed, feedback, handoffs, sms, email, both, link, 0
  FROM request_daily;
DROP TABLE request_daily;
ALTER TABLE request_daily_slots RENAME TO request_daily;
