-- What a review needs for the business's website (docs/widget.md). Added to the reviews table of
-- store/migrations/001-initial.sql; nothing there changes.
--
-- website_consent: the customer's answer on the customer page to "may the business show this on
-- its website" (1 yes; 0 no or never asked, as every review stored before and every synced one),
-- and when they gave it.
ALTER TABLE reviews ADD COLUMN website_consent INTEGER NOT NULL DEFAULT 0 CHECK (website_consent IN (0, 1));
ALTER TABLE reviews ADD COLUMN website_consent_at {{bigint}};
-- hidden_reason: the business reported the review's content (never its rating): abuse, or
-- someone's private information (packages/shared/src/widget.ts, HIDE_REASONS). Not a status: a
-- hidden review stays pending, responded or ignored in the inbox.
ALTER TABLE reviews ADD COLUMN hidden_reason TEXT CHECK (hidden_reason IN ('abuse', 'private_data'));
ALTER TABLE reviews ADD COLUMN hidden_at {{bigint}};

-- The widget's newest reviews: a business's consented reviews from its own page, not hidden, by
-- date. Only the customer page records consent; a synced review is never shown even if it held one.
CREATE INDEX reviews_website ON reviews (business_id, review_at, id)
  WHERE website_consent = 1 AND hidden_reason IS NULL AND platform = 'direct';
-- The hidden ones, newest report first (few per business).
CREATE INDEX reviews_hidden ON reviews (business_id, hidden_at, id) WHERE hidden_reason IS NOT NULL;
-- Each other site's count and average: its reviews alone, read from the index.
CREATE INDEX reviews_synced ON reviews (business_id, platform, review_at, rating) WHERE platform <> 'direct';
