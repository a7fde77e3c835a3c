-- Square, the first point of sale (docs/settings.md, "Integrations"): one connection per business.
-- Square posts its notifications to PUBLIC_ORIGIN/webhooks/square/<id>; they are signed with the
-- subscription's signature key (sealed here, like the access token that reads a payment's
-- customer). Automatic sends are off until the business turns them on.
CREATE TABLE square_connections (
  id TEXT PRIMARY KEY,
  business_id {{bigint}} NOT NULL UNIQUE,
  signature_key TEXT NOT NULL,
  access_token TEXT,
  automatic_sends INTEGER NOT NULL CHECK (automatic_sends IN (0, 1)),
  delay_minutes INTEGER NOT NULL,
  connected_at {{bigint}} NOT NULL,
  last_event_at {{bigint}},
  updated_at {{bigint}} NOT NULL
) {{strict}};
