-- A business's Google Business Profile location (docs/api.md, "Google Business Profile"): its
-- account and location ids, the OAuth refresh token and the latest access token sealed with the
-- service's secrets key (never stored in the clear), and how its sync is going. One per business.
CREATE TABLE google_connections (
  business_id {{bigint}} PRIMARY KEY REFERENCES businesses (id),
  account_id TEXT NOT NULL,
  location_id TEXT NOT NULL,
  refresh_token TEXT NOT NULL,
  access_token TEXT,
  access_expires_at {{bigint}},
  -- connected; needs_owner: Google refused the token or the location (401/403, invalid_grant).
  state TEXT NOT NULL CHECK (state IN ('connected', 'needs_owner')),
  problem TEXT,
  -- The newest updateTime of a pass that read down to what was known: the next pass stops there.
  synced_through {{bigint}},
  last_sync_at {{bigint}},
  last_error TEXT,
  -- Failed syncs in a row (429, 5xx, unreachable): the back-off doubles with each.
  failures INTEGER NOT NULL DEFAULT 0,
  -- Changes with every connect: a sync started for an older connection records nothing.
  generation INTEGER NOT NULL DEFAULT 1,
  created_at {{bigint}} NOT NULL,
  updated_at {{bigint}} NOT NULL
) {{strict}};
