-- Requests that send themselves later (docs/api.md, "Sending later").

-- Where a request came from, for the requests that say: the caller's own id of the sale, visit or
-- invoice it follows (`externalId`: one request per business and id, whatever arrives twice), and
-- for an automatic request the source its contact came from (`square`) with that source's id. The
-- request's link token is kept here too, so a retried externalId is answered with the request's
-- link even once a cancellation has forgotten the request itself. Plain sends write no row.
CREATE TABLE request_origins (
  request_id TEXT PRIMARY KEY,
  business_id {{bigint}} NOT NULL,
  external_id TEXT,
  source TEXT,
  source_id TEXT,
  token TEXT NOT NULL,
  created_at {{bigint}} NOT NULL,
  UNIQUE (business_id, external_id)
) {{strict}};

-- A held request cancelled before its time: its status stays `failed` (nothing went out) and reads
-- back as `cancelled`.
ALTER TABLE delivery_requests ADD COLUMN cancelled_at {{bigint}};
