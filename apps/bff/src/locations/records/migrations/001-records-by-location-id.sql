-- The records each location keeps — the send journal's entries, the list sends, the alerts, what
-- its polls have seen — move from the location's slug to its id (locations migration 002), so a
-- location added later under a removed one's slug reads none of them. This component is migrated
-- after every component whose tables it changes (store/database.ts).
--
-- '' stands for the one implicit location UPSTREAM_URL gives while no location is stored (and for
-- sends journaled before sends named their location): its records, and those of its slug `main`
-- (unless a stored location has that slug), belong to the first location stored, or stay the
-- implicit location's ('') while none is. Records of a slug no location has any more were a
-- removed location's: they are dropped, as `location remove` drops them now.

DELETE FROM sends WHERE location NOT IN ('', 'main') AND location NOT IN (SELECT slug FROM locations);
UPDATE sends SET location = coalesce(
  (SELECT l.id FROM locations l WHERE l.slug = sends.location),
  (SELECT l.id FROM locations l ORDER BY l.position, l.slug LIMIT 1),
  '');

DELETE FROM bulk_rows WHERE job_id IN (SELECT id FROM bulk_jobs
  WHERE location NOT IN ('', 'main') AND location NOT IN (SELECT slug FROM locations));
DELETE FROM bulk_jobs WHERE location NOT IN ('', 'main') AND location NOT IN (SELECT slug FROM locations);
UPDATE bulk_jobs SET location = coalesce(
  (SELECT l.id FROM locations l WHERE l.slug = bulk_jobs.location),
  (SELECT l.id FROM locations l ORDER BY l.position, l.slug LIMIT 1),
  '');

-- Where the first location already has the same alert or seen review, its own is kept.
DELETE FROM alerts WHERE location NOT IN ('', 'main') AND location NOT IN (SELECT slug FROM locations);
DELETE FROM alert_seen WHERE location NOT IN ('', 'main') AND location NOT IN (SELECT slug FROM locations);
DELETE FROM alert_watches WHERE location NOT IN ('', 'main') AND location NOT IN (SELECT slug FROM locations);
DELETE FROM alerts WHERE location IN ('', 'main') AND location NOT IN (SELECT slug FROM locations)
  AND EXISTS (SELECT 1 FROM alerts other WHERE other.user_id = alerts.user_id AND other.review_id = alerts.review_id
    AND other.location = (SELECT l.slug FROM locations l ORDER BY l.position, l.slug LIMIT 1));
DELETE FROM alert_seen WHERE location IN ('', 'main') AND location NOT IN (SELECT slug FROM locations)
  AND EXISTS (SELECT 1 FROM alert_seen other WHERE other.review_id = alert_seen.review_id
    AND other.location = (SELECT l.slug FROM locations l ORDER BY l.position, l.slug LIMIT 1));
DELETE FROM alert_watches WHERE location IN ('', 'main') AND location NOT IN (SELECT slug FROM locations)
  AND EXISTS (SELECT 1 FROM locations);
UPDATE alerts SET location = coalesce(
  (SELECT l.id FROM locations l WHERE l.slug = alerts.location),
  (SELECT l.id FROM locations l ORDER BY l.position, l.slug LIMIT 1),
  '');
UPDATE alert_seen SET location = coalesce(
  (SELECT l.id FROM locations l WHERE l.slug = alert_seen.location),
  (SELECT l.id FROM locations l ORDER BY l.position, l.slug LIMIT 1),
  '');
UPDATE alert_watches SET location = coalesce(
  (SELECT l.id FROM locations l WHERE l.slug = alert_watches.location),
  (SELECT l.id FROM locations l ORDER BY l.position, l.slug LIMIT 1),
  '');
-- Each location's poll job is made again under its id (alerts/service.ts).
DELETE FROM jobs WHERE kind = 'alerts.poll';
