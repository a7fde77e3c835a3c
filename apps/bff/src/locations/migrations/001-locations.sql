-- Locations: each with its own upstream and API key. The key is sealed with AES-256-GCM
-- (secrets.ts); the key that opens it lives outside this database (BFF_SECRETS_KEY or its file).
CREATE TABLE locations (
  slug TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  -- NULL: the configured UPSTREAM_URL.
  upstream_url TEXT,
  key_sealed TEXT NOT NULL,
  auth_scheme TEXT NOT NULL CHECK (auth_scheme IN ('x-api-key', 'bearer')),
  -- NULL: the upstream's own origin.
  origin TEXT,
  position {{bigint}} NOT NULL,
  created_at {{bigint}} NOT NULL,
  updated_at {{bigint}} NOT NULL
) {{strict}};

-- A user's reach. No row: every location (what a user had before locations existed).
-- all_locations = 0: only the slugs listed in user_locations.
CREATE TABLE location_scopes (
  user_id TEXT PRIMARY KEY,
  all_locations INTEGER NOT NULL CHECK (all_locations IN (0, 1)),
  updated_at {{bigint}} NOT NULL
) {{strict}};

CREATE TABLE user_locations (
  user_id TEXT NOT NULL REFERENCES location_scopes(user_id) ON DELETE CASCADE,
  slug TEXT NOT NULL REFERENCES locations(slug) ON DELETE CASCADE,
  PRIMARY KEY (user_id, slug)
) {{strict}};
CREATE INDEX user_locations_slug ON user_locations(slug);
