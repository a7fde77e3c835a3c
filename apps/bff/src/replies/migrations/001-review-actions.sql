-- Who answered what (docs/bff.md, "Answering reviews"): one row per change a user asked for on a
-- review — a reply (its words), a withdrawal, ignore, reopen — written before it goes upstream,
-- finished with how it went. Kept SEND_HISTORY_DAYS, like the send journal.
CREATE TABLE review_actions (
  id TEXT PRIMARY KEY,
  location TEXT NOT NULL,
  review_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  user_email TEXT NOT NULL,
  action TEXT NOT NULL CHECK (action IN ('reply', 'withdraw', 'ignore', 'reopen')),
  text TEXT,
  idem_key TEXT,
  outcome TEXT NOT NULL CHECK (outcome IN ('in_flight', 'done', 'refused', 'unknown')),
  http_status INTEGER,
  reply_state TEXT,
  error TEXT,
  created_at {{bigint}} NOT NULL,
  finished_at {{bigint}}
) {{strict}};
CREATE INDEX review_actions_review ON review_actions (location, review_id, created_at DESC);
CREATE INDEX review_actions_created ON review_actions (created_at);
CREATE INDEX review_actions_in_flight ON review_actions (created_at) WHERE outcome = 'in_flight';

-- Each location's saved replies (docs/bff.md, "Saved replies"), in the order the reply box offers
-- them. None stored: the built-in ones apply.
CREATE TABLE saved_replies (
  location TEXT NOT NULL,
  position INTEGER NOT NULL,
  title TEXT NOT NULL,
  text TEXT NOT NULL,
  min_rating INTEGER NOT NULL,
  max_rating INTEGER NOT NULL,
  updated_by TEXT NOT NULL,
  updated_at {{bigint}} NOT NULL,
  PRIMARY KEY (location, position)
) {{strict}};
