import type { Queryable } from '@review-desk/server/db/types';
import { REPLY_IN_FLIGHT, type ReplyState, type ReviewStatus } from '@review-desk/shared';
import type { Store } from '../../store/index.ts';
import type { ReviewRow } from '../store.ts';
import { type GoogleReview, STAR_RATINGS } from './wire.ts';

// A page of Google's reviews into the reviews table (platform `google`, external_id its reviewId):
// new ones inserted, changed ones (a new rating or text, a reply written, edited or deleted on
// Google's side) updated, each moving the counters and roll-ups in the same transaction. A reply
// this service is posting is left to its call; one whose outcome was lost (`unknown`) is settled
// as posted when Google shows its text.

export type PageOutcome = { inserted: number; updated: number; unchanged: number; skipped: number };

type Existing = ReviewRow & {
  version: number;
  external_updated_at: number | null;
  reply_id: number | null;
  reply_state: ReplyState | null;
  responded_by: string | null;
  responded_at: number | null;
  reply_text: string | null;
};

const SELECT_EXISTING = `SELECT r.*, x.state AS reply_state, x.text AS reply_text FROM reviews r
  LEFT JOIN review_replies x ON x.id = r.reply_id
  WHERE r.business_id = $1 AND r.platform = 'google' AND r.external_id = $2`;

const INSERT = `INSERT INTO reviews (business_id, rating, status, author_name, text, review_at, response_text,
    platform, external_id, request_id, created_at, responded_at, first_responded_at, external_updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, 'google', $8, NULL, $9, $10, $10, $11) RETURNING *`;

const UPDATE = `UPDATE reviews SET rating = $2, status = $3, author_name = $4, text = $5, response_text = $6,
    responded_at = $7, responded_by = $8, first_responded_at = coalesce(first_responded_at, $7),
    external_updated_at = $9, version = version + CASE WHEN $10 = 1 THEN 1 ELSE 0 END
  WHERE id = $1`;

function authorOf(review: GoogleReview): string | null {
  if (review.reviewer?.isAnonymous) return null;
  const name = review.reviewer?.displayName?.trim();
  return name ? name.slice(0, 200) : null;
}

/** Stores one page; returns what it did. Call inside a transaction. */
export async function upsertPage(
  db: Queryable,
  store: Store,
  businessId: number,
  reviews: readonly GoogleReview[],
  now: number,
): Promise<PageOutcome> {
  const outcome: PageOutcome = { inserted: 0, updated: 0, unchanged: 0, skipped: 0 };
  for (const review of reviews) {
    const rating = STAR_RATINGS[review.starRating];
    if (rating === undefined) {
      outcome.skipped++;
      continue;
    }
    const reply = review.reviewReply ?? null;
    const replyAt = reply ? (reply.updateTime ?? review.updateTime) : null;
    const text = review.comment?.trim() ? review.comment.slice(0, 20_000) : null;
    const existing = await db.get<Existing>(SELECT_EXISTING, businessId, review.reviewId);
    if (!existing) {
      const status: ReviewStatus = reply ? 'responded' : 'pending';
      const row = (await db.get<ReviewRow>(
        INSERT,
        businessId,
        rating,
        status,
        authorOf(review),
        text,
        review.createTime,
        reply?.comment ?? null,
        review.reviewId,
        now,
        replyAt,
        review.updateTime,
      ))!;
      await store.reviews.account({ ...row, review_at: Number(row.review_at), business_id: businessId }, 1);
      outcome.inserted++;
      continue;
    }
    if (existing.external_updated_at !== null && Number(existing.external_updated_at) === review.updateTime) {
      outcome.unchanged++;
      continue;
    }
    // Our own reply still under way: its call records the outcome, the sync leaves it be.
    const posting = existing.reply_state !== null && REPLY_IN_FLIGHT.includes(existing.reply_state);
    let status: ReviewStatus = existing.status;
    let responseText = existing.response_text;
    let respondedAt: number | null = existing.responded_at === null ? null : Number(existing.responded_at);
    let respondedBy = existing.responded_by;
    if (!posting) {
      if (reply && reply.comment !== existing.response_text) {
        // Written or edited on Google's side (or our lost reply, now known to be there).
        status = 'responded';
        responseText = reply.comment;
        respondedAt = replyAt;
        respondedBy =
          existing.reply_state === 'unknown' && existing.reply_text === reply.comment ? respondedBy : null;
      } else if (!reply && existing.status === 'responded') {
        // Deleted on Google's side.
        status = 'pending';
        responseText = null;
        respondedAt = null;
        respondedBy = null;
      }
    }
    if (existing.reply_state === 'unknown' && reply && reply.comment === existing.reply_text)
      await store.replies.setState(Number(existing.reply_id), 'posted', now);
    const changed =
      status !== existing.status ||
      responseText !== existing.response_text ||
      rating !== existing.rating ||
      text !== existing.text;
    const before = { ...existing, review_at: Number(existing.review_at), business_id: businessId };
    if (status !== existing.status || rating !== existing.rating) await store.reviews.account(before, -1);
    await db.run(
      UPDATE,
      existing.id,
      rating,
      status,
      authorOf(review),
      text,
      responseText,
      respondedAt,
      respondedBy,
      review.updateTime,
      changed ? 1 : 0,
    );
    if (status !== existing.status || rating !== existing.rating)
      await store.reviews.account({ ...before, status, rating }, 1);
    outcome.updated++;
  }
  return outcome;
}
