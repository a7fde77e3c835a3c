-- A send's refusals (an opted-out contact, the frequency cap, the monthly allowance) are raised
-- by the statements that find them (store/refusals.ts): the server then rolls the transaction
-- back by itself, so the COMMIT can travel right behind the send's statements, shared with the
-- sends issued at the same time (docs/decisions/0023-sends-share-a-commit.md). SQLite decides
-- them in the store, one statement after another, before its transaction commits.
-- postgres:
CREATE OR REPLACE FUNCTION rd_refuse(reason text) RETURNS integer LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'RD001', MESSAGE = reason;
END
$$;
-- end
