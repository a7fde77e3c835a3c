-- Each location gets an id that is never used again: the send journal, the list sends and the
-- alerts are bound to it, never to the slug (records/migrations/001 moves them), so a location
-- added later under a removed one's slug reads nothing recorded for the removed one.
ALTER TABLE locations ADD COLUMN id TEXT NOT NULL DEFAULT '';
UPDATE locations SET id = lower(hex(randomblob(16))); -- sqlite
UPDATE locations SET id = replace(gen_random_uuid()::text, '-', ''); -- postgres
CREATE UNIQUE INDEX locations_id ON locations(id);
