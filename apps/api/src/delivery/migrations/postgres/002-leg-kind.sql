-- A request's legs gain a kind: `request` (the messages of the send) or `reminder` (the one
-- automatic reminder, docs/settings.md "The reminder"), so a request can hold an SMS of each.
-- The rows already there are the sends' own (`request`).
ALTER TABLE delivery_legs
  ADD COLUMN kind text NOT NULL DEFAULT 'request' CHECK (kind IN ('request', 'reminder'));
ALTER TABLE delivery_legs DROP CONSTRAINT delivery_legs_pkey;
ALTER TABLE delivery_legs ADD PRIMARY KEY (request_id, channel, kind);
