-- The location each send went to ('' for sends journaled before locations had their own history):
-- the history and the "sent to this contact" warning are per location. The idempotency key stays
-- one intent per user, whatever the location.
ALTER TABLE sends ADD COLUMN location TEXT NOT NULL DEFAULT '';
CREATE INDEX sends_location ON sends(location, created_at DESC);
