-- Scheduled work (jobs.ts): each row one piece of work to run at run_at (ms, the service's clock),
-- claimed by one process at a time under a lease it renews while the work runs.
CREATE TABLE jobs (
  id {{id}},
  kind TEXT NOT NULL,
  -- Deduplication: a second job with the same key is not created (kept after the job finishes).
  unique_key TEXT UNIQUE,
  payload TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'running', 'done', 'failed', 'cancelled')),
  run_at {{bigint}} NOT NULL,
  -- Claims so far; back to 0 when the work reschedules itself to continue later.
  attempts INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL,
  lease_owner TEXT,
  lease_until {{bigint}},
  -- 1 when this claim took the job over from a process whose lease ran out mid-work.
  reclaimed INTEGER NOT NULL DEFAULT 0,
  started_at {{bigint}},
  last_error TEXT,
  created_at {{bigint}} NOT NULL,
  finished_at {{bigint}}
) {{strict}};
CREATE INDEX jobs_due ON jobs (run_at, id) WHERE state = 'pending';
CREATE INDEX jobs_leased ON jobs (lease_until) WHERE state = 'running';
CREATE INDEX jobs_finished ON jobs (finished_at) WHERE state IN ('done', 'failed', 'cancelled');

-- Running processes (instances.ts): a heartbeat extends each one's lease; work recorded as in
-- flight by an instance whose lease ran out can be declared unknown by the others.
CREATE TABLE instances (
  id TEXT PRIMARY KEY,
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  started_at {{bigint}} NOT NULL,
  heartbeat_at {{bigint}} NOT NULL,
  lease_until {{bigint}} NOT NULL
) {{strict}};
