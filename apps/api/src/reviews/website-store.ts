import { migrationsBeside } from '@review-desk/server/db/migrate';
import type { Queryable } from '@review-desk/server/db/types';
import { DIRECT_PLATFORM, type HideReason } from '@review-desk/shared';

// A review on the business's website (docs/widget.md): the customer's consent, the business's
// report of its content, and the reads the widget is built from. The columns are the reviews
// table's (component `reviews`, migrations/ beside this file); the inbox's status is not touched.

export const REVIEWS_MIGRATIONS = migrationsBeside(import.meta.url, 'reviews');

/** The columns this file adds to a review row. */
export type WebsiteColumns = {
  website_consent: number;
  website_consent_at: number | null;
  hidden_reason: HideReason | null;
  hidden_at: number | null;
};

/** A review as the widget may show it. */
export type WebsiteReviewRow = {
  id: number;
  rating: number;
  author_name: string | null;
  text: string | null;
  review_at: number;
};
export type HiddenReviewRow = WebsiteReviewRow & { hidden_reason: HideReason; hidden_at: number };
export type SourceRow = { platform: string; n: number; rating_sum: number };

const SHOWN = `SELECT id, rating, author_name, text, review_at FROM reviews`;

export function websiteStore(db: Queryable) {
  const setConsent = db.prepare(
    'UPDATE reviews SET website_consent = $1, website_consent_at = $2 WHERE id = $3',
  );
  const hide = db.prepare(
    'UPDATE reviews SET hidden_reason = $1, hidden_at = $2 WHERE id = $3 AND business_id = $4',
  );
  const show = db.prepare(
    'UPDATE reviews SET hidden_reason = NULL, hidden_at = NULL WHERE id = $1 AND business_id = $2',
  );
  // The partial indexes of migrations/001-website.sql, read in their order. Only reviews left on
  // the business's own page are ever shown (synced ones appear as their site's figures).
  const direct = `platform = '${DIRECT_PLATFORM}'`;
  const newest = db.prepare(`${SHOWN}
    WHERE business_id = $1 AND website_consent = 1 AND hidden_reason IS NULL AND ${direct} AND review_at >= $2
    ORDER BY review_at DESC, id DESC LIMIT $3`);
  // SQLite without statistics would walk every review of the window instead of the few hidden.
  const hiddenShown = db.prepare(`SELECT count(*) AS n
    FROM reviews ${db.dialect === 'sqlite' ? 'INDEXED BY reviews_hidden' : ''}
    WHERE business_id = $1 AND hidden_reason IS NOT NULL AND website_consent = 1 AND ${direct} AND review_at >= $2`);
  const hiddenList = db.prepare(`SELECT id, rating, author_name, text, review_at, hidden_reason, hidden_at
    FROM reviews WHERE business_id = $1 AND hidden_reason IS NOT NULL
    ORDER BY hidden_at DESC, id DESC LIMIT $2`);
  const hiddenTotal = db.prepare(
    'SELECT count(*) AS n FROM reviews WHERE business_id = $1 AND hidden_reason IS NOT NULL',
  );
  const sources = db.prepare(`SELECT platform, count(*) AS n, sum(rating) AS rating_sum FROM reviews
    WHERE business_id = $1 AND platform <> '${DIRECT_PLATFORM}' AND review_at >= $2
    GROUP BY platform ORDER BY platform`);
  const demoConsent = db.prepare(`UPDATE reviews SET website_consent = 1, website_consent_at = review_at
    WHERE business_id = $1 AND ${direct} AND id % 3 <> 0`);

  const count = (row: { n: number | string } | undefined) => Number(row?.n ?? 0);

  return {
    /** Records the customer's answer (yes or no) and when they gave it. */
    async setConsent(reviewId: number, consent: boolean, at: number): Promise<void> {
      await setConsent.run(consent ? 1 : 0, at, reviewId);
    },
    /** Reports a review of the business for a content reason; false when it is not the business's. */
    async hide(businessId: number, reviewId: number, reason: HideReason, at: number): Promise<boolean> {
      return (await hide.run(reason, at, reviewId, businessId)).changes > 0;
    },
    async show(businessId: number, reviewId: number): Promise<boolean> {
      return (await show.run(reviewId, businessId)).changes > 0;
    },
    /** The newest consented reviews since `from` (ms) that are not hidden, newest first. */
    newest: (businessId: number, from: number, limit: number) =>
      newest.all<WebsiteReviewRow>(businessId, from, limit),
    /** Consented reviews since `from` that the business hid: what the widget says it left out. */
    async hiddenCount(businessId: number, from: number): Promise<number> {
      return count(await hiddenShown.get<{ n: number }>(businessId, from));
    },
    async hidden(businessId: number, limit: number): Promise<{ rows: HiddenReviewRow[]; total: number }> {
      const [rows, total] = await Promise.all([
        hiddenList.all<HiddenReviewRow>(businessId, limit),
        hiddenTotal.get<{ n: number }>(businessId),
      ]);
      return { rows: rows.map((r) => ({ ...r, hidden_at: Number(r.hidden_at) })), total: count(total) };
    },
    /** Each other site's count and rating sum since `from`. */
    async sources(businessId: number, from: number): Promise<SourceRow[]> {
      const rows = await sources.all<SourceRow>(businessId, from);
      return rows.map((r) => ({ platform: r.platform, n: Number(r.n), rating_sum: Number(r.rating_sum) }));
    },
    /** The demo's customers: two in three said yes. */
    async consentDemo(businessId: number): Promise<void> {
      await demoConsent.run(businessId);
    },
  };
}
export type WebsiteStore = ReturnType<typeof websiteStore>;
