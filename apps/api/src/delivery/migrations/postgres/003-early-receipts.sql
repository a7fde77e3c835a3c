-- A carrier's receipt that arrives before its message's leg is recorded (the carrier answered the
-- send and called back before the send's transaction committed): held here and applied when the
-- leg is written, instead of being lost. Rows older than a day are swept.
CREATE TABLE delivery_early_receipts (
  provider_message_id text PRIMARY KEY,
  state text NOT NULL,
  rank integer NOT NULL,
  error_code text,
  error text,
  at bigint NOT NULL
);
CREATE INDEX delivery_early_receipts_at ON delivery_early_receipts (at);
