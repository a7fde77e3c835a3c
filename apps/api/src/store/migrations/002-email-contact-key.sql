-- The frequency cap counts an email address under its contact key (packages/shared contact.ts:
-- lower case; for providers that ignore it, the +tag dropped; for Gmail also the dots), so
-- `ana+1@gmail.com` is capped after `ana@gmail.com`. customer_email keeps the address as given:
-- it is where the message went. On SQLite, rows an older version stored are keyed here, from
-- their address. A PostgreSQL database is always new when it reaches this step (rows arrive later,
-- through migrate-to-postgres, already keyed), so there is nothing to key there; should a row with
-- an address be there after all, stop rather than leave it unkeyed.
-- postgres:
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM requests WHERE customer_email IS NOT NULL) THEN
    RAISE EXCEPTION 'requests holds email addresses without contact keys: migrate an empty database, then copy the data with migrate-to-postgres';
  END IF;
END
$$;
-- end
ALTER TABLE requests ADD COLUMN email_key TEXT;
UPDATE requests SET email_key = email_contact_key(customer_email) WHERE customer_email IS NOT NULL; -- sqlite
DROP INDEX requests_email;
CREATE INDEX requests_email_key ON requests (business_id, email_key, created_at) WHERE email_key IS NOT NULL;
