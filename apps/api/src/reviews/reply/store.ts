import { withNumbers } from '@review-desk/server/db/rows';
import type { Queryable } from '@review-desk/server/db/types';
import type { Channel, ReplyDestination, ReplyState, ReviewStatus } from '@review-desk/shared';
import type { ReviewRow } from '../store.ts';

// The reply side of the reviews table (version, who answered and when, the latest attempt) and
// the review_replies table: one row per reply or withdrawal asked for, keyed by its business's
// Idempotency-Key. Status changes move the review between the counters and roll-ups in the same
// transaction (reviews/store.ts: account).

export type ReviewRecord = ReviewRow & {
  version: number;
  responded_at: number | null;
  responded_by: string | null;
  first_responded_at: number | null;
  reply_id: number | null;
  external_updated_at: number | null;
  /** The request the review was left through (our own page), when it was. */
  request_public_id: string | null;
  request_channel: Channel | null;
};

export type ReplyRow = {
  id: number;
  business_id: number;
  review_id: number;
  idem_key: string | null;
  fingerprint: string;
  action: 'reply' | 'withdraw';
  destination: ReplyDestination;
  channel: Channel | null;
  text: string | null;
  responded_by: string | null;
  state: ReplyState;
  error: string | null;
  scheduled_for: number | null;
  created_at: number;
  updated_at: number;
};

export type NewReply = Omit<ReplyRow, 'id' | 'updated_at' | 'error' | 'scheduled_for'>;

const REVIEW_NUMBERS = [
  'id',
  'business_id',
  'rating',
  'review_at',
  'request_id',
  'created_at',
  'version',
  'responded_at',
  'first_responded_at',
  'reply_id',
  'external_updated_at',
] as const;
const REPLY_NUMBERS = [
  'id',
  'business_id',
  'review_id',
  'scheduled_for',
  'created_at',
  'updated_at',
] as const;

export const toRecord = (row: ReviewRecord) => withNumbers(row, [...REVIEW_NUMBERS]);
export const toReply = (row: ReplyRow) => withNumbers(row, [...REPLY_NUMBERS]);

/** The words an intent that cannot still be under way is left with. */
export const INTERRUPTED =
  'The service stopped, or lost the answer, while this was being delivered: it may or may not have gone out. It is not sent again by itself.';

export function replyStore(db: Queryable) {
  const review = db.prepare(`SELECT r.*, q.public_id AS request_public_id, q.channel AS request_channel
    FROM reviews r LEFT JOIN requests q ON q.id = r.request_id WHERE r.id = $1 AND r.business_id = $2`);
  const reply = db.prepare('SELECT * FROM review_replies WHERE id = $1');
  const byKey = db.prepare('SELECT * FROM review_replies WHERE business_id = $1 AND idem_key = $2');
  const insert = db.prepare(`INSERT INTO review_replies
    (business_id, review_id, idem_key, fingerprint, action, destination, channel, text, responded_by, state,
     created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
    ON CONFLICT (business_id, idem_key) WHERE idem_key IS NOT NULL DO NOTHING RETURNING *`);
  const claim = db.prepare('UPDATE reviews SET version = version + 1, reply_id = $2 WHERE id = $1');
  const setState = db.prepare(`UPDATE review_replies SET state = $2, error = $3,
    scheduled_for = coalesce($4, scheduled_for), updated_at = $5 WHERE id = $1 RETURNING *`);
  // Only what is still under way moves on: a late answer never undoes `unknown`.
  const settle = db.prepare(`UPDATE review_replies SET state = $2, error = $3, updated_at = $4
    WHERE id = $1 AND state IN ('sending', 'posting') RETURNING *`);
  const respond = db.prepare(`UPDATE reviews SET status = 'responded', response_text = $2, responded_at = $3,
    responded_by = $4, first_responded_at = coalesce(first_responded_at, $3), version = version + 1 WHERE id = $1`);
  const unrespond =
    db.prepare(`UPDATE reviews SET status = 'pending', response_text = NULL, responded_at = NULL,
    responded_by = NULL, version = version + 1 WHERE id = $1`);
  const setStatus = db.prepare('UPDATE reviews SET status = $2, version = version + 1 WHERE id = $1');
  const stale = db.prepare(`UPDATE review_replies SET state = 'unknown', error = $2, updated_at = $3
    WHERE state IN ('sending', 'posting') AND updated_at < $1 RETURNING *`);
  // The median time to first reply of the reviews dated since $2: read through reviews_first_reply.
  const firstReplies = db.prepare(`SELECT count(*) AS n FROM reviews
    WHERE business_id = $1 AND review_at >= $2 AND first_responded_at IS NOT NULL`);
  const delays =
    db.prepare(`SELECT CASE WHEN first_responded_at > review_at THEN first_responded_at - review_at ELSE 0 END AS delay
    FROM reviews WHERE business_id = $1 AND review_at >= $2 AND first_responded_at IS NOT NULL
    ORDER BY delay LIMIT $3 OFFSET $4`);
  const purge = db.prepare(`DELETE FROM review_replies WHERE created_at < $1
    AND state NOT IN ('sending', 'posting', 'scheduled')
    AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.reply_id = review_replies.id)`);

  return {
    async review(businessId: number, id: number): Promise<ReviewRecord | undefined> {
      const row = await review.get<ReviewRecord>(id, businessId);
      return row && toRecord(row);
    },
    async reply(id: number): Promise<ReplyRow | undefined> {
      const row = await reply.get<ReplyRow>(id);
      return row && toReply(row);
    },
    async byKey(businessId: number, key: string): Promise<ReplyRow | undefined> {
      const row = await byKey.get<ReplyRow>(businessId, key);
      return row && toReply(row);
    },
    /** The intent, or undefined when its key is taken (by another attempt of the same, or another). */
    async insert(r: NewReply): Promise<ReplyRow | undefined> {
      const row = await insert.get<ReplyRow>(
        r.business_id,
        r.review_id,
        r.idem_key,
        r.fingerprint,
        r.action,
        r.destination,
        r.channel,
        r.text,
        r.responded_by,
        r.state,
        r.created_at,
      );
      return row && toReply(row);
    },
    /** The review's version moves and its latest attempt is this one (inside the claim's transaction). */
    async claim(reviewId: number, replyId: number): Promise<void> {
      await claim.run(reviewId, replyId);
    },
    async setState(
      id: number,
      state: ReplyState,
      at: number,
      detail: { error?: string | null; scheduledFor?: number | null } = {},
    ): Promise<ReplyRow | undefined> {
      const row = await setState.get<ReplyRow>(
        id,
        state,
        detail.error ?? null,
        detail.scheduledFor ?? null,
        at,
      );
      return row && toReply(row);
    },
    /** An attempt under way reaches its outcome; undefined when it was no longer under way. */
    async settle(id: number, state: ReplyState, at: number, error: string | null = null) {
      const row = await settle.get<ReplyRow>(id, state, error, at);
      return row && toReply(row);
    },
    respond: (reviewId: number, text: string, by: string | null, at: number) =>
      respond.run(reviewId, text, at, by),
    unrespond: (reviewId: number) => unrespond.run(reviewId),
    setStatus: (reviewId: number, status: ReviewStatus) => setStatus.run(reviewId, status),
    /** Attempts left under way since before `before` cannot still be: they become unknown. */
    async settleStale(before: number, now: number): Promise<ReplyRow[]> {
      return (await stale.all<ReplyRow>(before, INTERRUPTED, now)).map(toReply);
    },
    /**
     * The reviews dated since `since` that have a first reply, and the median time to it (ms; the
     * mean of the middle two for an even count); null when none has.
     */
    async firstReplyTimes(
      businessId: number,
      since: number,
    ): Promise<{ n: number; medianMs: number | null }> {
      const n = Number((await firstReplies.get<{ n: number }>(businessId, since))?.n ?? 0);
      if (n === 0) return { n, medianMs: null };
      const middle = await delays.all<{ delay: number }>(
        businessId,
        since,
        n % 2 === 0 ? 2 : 1,
        Math.floor((n - 1) / 2),
      );
      const values = middle.map((row) => Number(row.delay));
      return { n, medianMs: values.reduce((sum, value) => sum + value, 0) / values.length };
    },
    /** Finished attempts older than `before` that no review names as its latest. */
    async purge(before: number): Promise<number> {
      return (await purge.run(before)).changes;
    },
  };
}
export type ReplyStore = ReturnType<typeof replyStore>;
