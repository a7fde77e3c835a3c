-- Events out (docs/api.md, "Webhooks"). Times are ms; `next_at` on the service's clock, leases
-- on the system clock (like the jobs table's).

-- A business's endpoints. `events` is the comma-framed list of the types it subscribes to
-- (`,review.created,request.sent,`), so one LIKE finds the endpoints of an event. Secrets are
-- sealed (packages/server secrets.ts) with the endpoint's id as their context; the secret before
-- a rotation keeps signing beside the new one until `previous_until`.
CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  business_id {{bigint}} NOT NULL,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_until {{bigint}},
  state TEXT NOT NULL CHECK (state IN ('active', 'paused')),
  paused_at {{bigint}},
  paused_reason TEXT,
  -- The owners were told of the pause (once per pause).
  pause_told_at {{bigint}},
  last_success_at {{bigint}},
  last_failure_at {{bigint}},
  created_at {{bigint}} NOT NULL
) {{strict}};
CREATE INDEX webhook_endpoints_business ON webhook_endpoints (business_id);

-- The outbox: one row per event and endpoint, written in the same transaction as what it reports
-- (nothing when no endpoint listens), delivered from here with the same webhook-id every attempt.
-- state: pending (due at next_at), delivering (claimed under a lease), delivered, failed.
CREATE TABLE webhook_deliveries (
  id {{id-always}},
  endpoint_id TEXT NOT NULL,
  business_id {{bigint}} NOT NULL,
  event_id TEXT NOT NULL,
  type TEXT NOT NULL,
  payload TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'delivering', 'delivered', 'failed')),
  attempts INTEGER NOT NULL,
  next_at {{bigint}},
  lease_owner TEXT,
  lease_until {{bigint}},
  last_status INTEGER,
  last_error TEXT,
  last_attempt_at {{bigint}},
  delivered_at {{bigint}},
  created_at {{bigint}} NOT NULL,
  UNIQUE (endpoint_id, event_id)
) {{strict}};
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_at, id) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (lease_until) WHERE state = 'delivering';
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (endpoint_id, created_at, id);
CREATE INDEX webhook_deliveries_age ON webhook_deliveries (created_at);
