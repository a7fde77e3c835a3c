-- What one user's lists hold (bulk/limits.ts): counted by user as they are by location.
CREATE INDEX bulk_jobs_creator ON bulk_jobs(created_by, status);
-- Finished lists past their retention are found by when they finished (bulk/retention.ts).
CREATE INDEX bulk_jobs_finished ON bulk_jobs(finished_at) WHERE status IN ('done', 'cancelled');
