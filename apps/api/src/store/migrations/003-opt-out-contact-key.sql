-- An email opt-out covers the mailbox, not one spelling of it: each stored email opt-out is also
-- recorded under its contact key (as new opt-outs are), so `ana+1@gmail.com` opting out stops
-- sends to `ana@gmail.com` and `ana+2@gmail.com` too. On SQLite this keys the opt-outs an older
-- version stored. A PostgreSQL database is always new when it reaches this step (opt-outs copied
-- by migrate-to-postgres already include their keyed rows), so there is nothing to add; should an
-- email opt-out be there after all, stop rather than leave the mailbox half covered.
-- sqlite:
INSERT OR IGNORE INTO opt_outs (business_id, contact, created_at)
  SELECT business_id, email_contact_key(contact), created_at FROM opt_outs WHERE contact LIKE '%@%';
-- end
-- postgres:
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM opt_outs WHERE contact LIKE '%@%') THEN
    RAISE EXCEPTION 'opt_outs holds email opt-outs without contact keys: migrate an empty database, then copy the data with migrate-to-postgres';
  END IF;
END
$$;
-- end
