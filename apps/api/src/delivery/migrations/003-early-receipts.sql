-- A carrier's receipt that arrives before its message's leg is recorded (the carrier answered the
-- send and called back before the send's transaction committed): held here and applied when the
-- leg is written, instead of being lost. Rows older than a day are swept.
CREATE TABLE delivery_early_receipts (
  provider_message_id TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  rank INTEGER NOT NULL,
  error_code TEXT,
  error TEXT,
  at {{bigint}} NOT NULL
) {{strict}};
CREATE INDEX delivery_early_receipts_at ON delivery_early_receipts (at);
