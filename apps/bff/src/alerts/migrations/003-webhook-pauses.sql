-- Webhook endpoints a location's upstream reports paused, and when its owners were told: written
-- before the emails go, so each pause (an endpoint and its paused_at) is told at most once
-- whatever restarts or other processes do. A row goes once its endpoint is no longer paused, so
-- there are never more rows than paused endpoints.
CREATE TABLE webhook_pause_notices (
  location TEXT NOT NULL,
  endpoint_id TEXT NOT NULL,
  paused_at TEXT NOT NULL,
  told_at {{bigint}} NOT NULL,
  PRIMARY KEY (location, endpoint_id)
) {{strict}};
