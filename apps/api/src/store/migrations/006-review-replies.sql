-- Answering reviews (docs/api.md, "Answering reviews"). A review keeps who answered it and when,
-- when its first reply came (for the median time to first reply), a version that every change
-- moves (a change names the version it read: no lost updates), the latest reply attempt, and for
-- a synced review the time the network last changed it (where an incremental sync stops).
ALTER TABLE reviews ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE reviews ADD COLUMN responded_at {{bigint}};
ALTER TABLE reviews ADD COLUMN responded_by TEXT;
ALTER TABLE reviews ADD COLUMN first_responded_at {{bigint}};
ALTER TABLE reviews ADD COLUMN reply_id {{bigint}};
ALTER TABLE reviews ADD COLUMN external_updated_at {{bigint}};

-- Each reply or withdrawal asked for (an intent, one per Idempotency-Key of its business) and how
-- far it got. Written before anything leaves: a process that stops mid-call leaves it `posting`
-- or `sending`, which turns `unknown` once it cannot still be under way; never retried by itself.
CREATE TABLE review_replies (
  id {{id}},
  business_id {{bigint}} NOT NULL REFERENCES businesses (id),
  review_id {{bigint}} NOT NULL REFERENCES reviews (id),
  idem_key TEXT,
  fingerprint TEXT NOT NULL,
  action TEXT NOT NULL CHECK (action IN ('reply', 'withdraw')),
  destination TEXT NOT NULL CHECK (destination IN ('customer', 'google')),
  channel TEXT CHECK (channel IN ('sms', 'email', 'both', 'link')),
  text TEXT,
  responded_by TEXT,
  state TEXT NOT NULL CHECK (state IN ('sending', 'sent', 'scheduled', 'opted_out', 'no_contact', 'posting', 'posted', 'withdrawn', 'failed', 'unknown')),
  error TEXT,
  scheduled_for {{bigint}},
  created_at {{bigint}} NOT NULL,
  updated_at {{bigint}} NOT NULL
) {{strict}};
CREATE UNIQUE INDEX review_replies_key ON review_replies (business_id, idem_key) WHERE idem_key IS NOT NULL;
CREATE INDEX review_replies_review ON review_replies (review_id, id);
CREATE INDEX review_replies_in_flight ON review_replies (updated_at) WHERE state IN ('sending', 'posting');
CREATE INDEX review_replies_created ON review_replies (created_at);

-- The inbox by source: a status and a platform, oldest or newest first (reviews/paging.ts).
CREATE INDEX reviews_by_platform ON reviews (business_id, status, platform, review_at, id, rating);
-- The median time to first reply of a window's reviews (analytics).
CREATE INDEX reviews_first_reply ON reviews (business_id, review_at, first_responded_at) WHERE first_responded_at IS NOT NULL;

-- What an outbox message was: a request's own, its reminder, or the business's reply.
ALTER TABLE outbox_messages ADD COLUMN kind TEXT NOT NULL DEFAULT 'request' CHECK (kind IN ('request', 'reminder', 'reply'));
