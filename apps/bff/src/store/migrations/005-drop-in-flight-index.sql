-- `sends_in_flight` (outcome, in-flight rows only) duplicated `sends_owner_in_flight`, which holds
-- the same rows: every claim and every outcome wrote both. The stale sweep reads the owner index now
-- (journal.ts), so each send updates one B-tree fewer.
DROP INDEX IF EXISTS sends_in_flight;
