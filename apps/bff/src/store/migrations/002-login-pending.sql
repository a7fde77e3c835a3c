-- The login throttle counts failures; `pending` holds the password checks in flight (taken before
-- the check, given back or turned into a failure after it), `pending_at` the last one.
ALTER TABLE login_failures ADD COLUMN pending INTEGER NOT NULL DEFAULT 0;
ALTER TABLE login_failures ADD COLUMN pending_at {{bigint}} NOT NULL DEFAULT 0;
