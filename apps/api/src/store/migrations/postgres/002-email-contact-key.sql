-- The frequency cap counts an email address under its contact key (packages/shared contact.ts),
-- kept in email_key beside the address as given. On SQLite this migration also keys the rows an
-- older version stored; a PostgreSQL database is always new when it reaches this step (rows
-- arrive later, through migrate-to-postgres, already keyed), so there is nothing to key here.
-- Should a row with an address be there after all, stop rather than leave it unkeyed.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM requests WHERE customer_email IS NOT NULL) THEN
    RAISE EXCEPTION 'requests holds email addresses without contact keys: migrate an empty database, then copy the data with migrate-to-postgres';
  END IF;
END
$$;
ALTER TABLE requests ADD COLUMN email_key text;
DROP INDEX requests_email;
CREATE INDEX requests_email_key ON requests (business_id, email_key, created_at) WHERE email_key IS NOT NULL;
