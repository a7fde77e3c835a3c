-- An email opt-out covers the mailbox, not one spelling of it: each one is also recorded under
-- its contact key. On SQLite this migration keys the opt-outs an older version stored; a
-- PostgreSQL database is always new when it reaches this step (opt-outs copied by
-- migrate-to-postgres already include their keyed rows), so there is nothing to add. Should an
-- email opt-out be there after all, stop rather than leave the mailbox half covered.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM opt_outs WHERE contact LIKE '%@%') THEN
    RAISE EXCEPTION 'opt_outs holds email opt-outs without contact keys: migrate an empty database, then copy the data with migrate-to-postgres';
  END IF;
END
$$;
