-- Which running BFF owns an in-flight send (its instance lease, table `instances`): when that
-- lease runs out, that instance's sends, and only those, become unknown.
ALTER TABLE sends ADD COLUMN owner_instance TEXT;
CREATE INDEX sends_owner_in_flight ON sends(owner_instance) WHERE outcome = 'in_flight';
