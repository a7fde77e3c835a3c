-- A business's website widget (docs/widget.md): its public id, the one thing the snippet carries
-- (random, not the business's slug: a visitor cannot list other businesses by guessing), and the
-- owner's switch. Made on the owner's first look at Settings → Website widget.
CREATE TABLE widgets (
  business_id {{bigint}} PRIMARY KEY REFERENCES businesses (id),
  public_id TEXT NOT NULL UNIQUE,
  enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  created_at {{bigint}} NOT NULL,
  updated_at {{bigint}} NOT NULL
) {{strict}};
