-- List sends (docs/bulk.md): a job and its rows. Each row is sent through the send journal with
-- its own idempotency key (the job's id, the row's index and its generation), so the journal
-- keeps every row to at most one send; this table records each row's outcome for the job's view.
CREATE TABLE bulk_jobs (
  id text PRIMARY KEY,
  location text NOT NULL,
  channel text NOT NULL,
  skip_recent integer NOT NULL CHECK (skip_recent IN (0, 1)),
  status text NOT NULL CHECK (status IN ('running', 'paused', 'done', 'cancelled')),
  reason text,
  -- How many times the job was set running (start, each resume): its runner job's unique key.
  runs integer NOT NULL,
  created_by text NOT NULL,
  created_by_email text NOT NULL,
  total bigint NOT NULL,
  created_at bigint NOT NULL,
  finished_at bigint
);
CREATE INDEX bulk_jobs_location ON bulk_jobs(location, created_at DESC);

CREATE TABLE bulk_rows (
  job_id text NOT NULL REFERENCES bulk_jobs(id) ON DELETE CASCADE,
  idx integer NOT NULL,
  customer_name text,
  customer_phone text,
  customer_email text,
  contact_masked text NOT NULL,
  -- pending → sending (claimed by one worker) → an outcome.
  outcome text NOT NULL CHECK (outcome IN ('pending', 'sending', 'sent', 'warning', 'skipped', 'refused', 'failed', 'unknown')),
  -- Bumped by "retry unknown rows": a new idempotency key for a deliberate second attempt.
  generation integer NOT NULL,
  claimed_by text,
  code text,
  detail text,
  request_id text,
  finished_at bigint,
  PRIMARY KEY (job_id, idx)
);
CREATE INDEX bulk_rows_open ON bulk_rows(job_id, outcome, idx);
