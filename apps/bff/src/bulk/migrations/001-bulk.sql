-- List sends (docs/bulk.md): a job and its rows. Each row is sent through the send journal with
-- its own idempotency key (the job's id, the row's index and its generation), so the journal
-- keeps every row to at most one send; this table records each row's outcome for the job's view.
CREATE TABLE bulk_jobs (
  id TEXT PRIMARY KEY,
  location TEXT NOT NULL,
  channel TEXT NOT NULL,
  skip_recent INTEGER NOT NULL CHECK (skip_recent IN (0, 1)),
  status TEXT NOT NULL CHECK (status IN ('running', 'paused', 'done', 'cancelled')),
  reason TEXT,
  -- How many times the job was set running (start, each resume): its runner job's unique key.
  runs INTEGER NOT NULL,
  created_by TEXT NOT NULL,
  created_by_email TEXT NOT NULL,
  total {{bigint}} NOT NULL,
  created_at {{bigint}} NOT NULL,
  finished_at {{bigint}}
) {{strict}};
CREATE INDEX bulk_jobs_location ON bulk_jobs(location, created_at DESC);

CREATE TABLE bulk_rows (
  job_id TEXT NOT NULL REFERENCES bulk_jobs(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  customer_name TEXT,
  customer_phone TEXT,
  customer_email TEXT,
  contact_masked TEXT NOT NULL,
  -- pending → sending (claimed by one worker) → an outcome.
  outcome TEXT NOT NULL CHECK (outcome IN ('pending', 'sending', 'sent', 'warning', 'skipped', 'refused', 'failed', 'unknown')),
  -- Bumped by "retry unknown rows": a new idempotency key for a deliberate second attempt.
  generation INTEGER NOT NULL,
  claimed_by TEXT,
  code TEXT,
  detail TEXT,
  request_id TEXT,
  finished_at {{bigint}},
  PRIMARY KEY (job_id, idx)
) {{strict}};
CREATE INDEX bulk_rows_open ON bulk_rows(job_id, outcome, idx);
