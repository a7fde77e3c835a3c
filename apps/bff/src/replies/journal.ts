import { randomUUID } from 'node:crypto';
import { migrationsBeside } from '@review-desk/server/db/migrate';
import { isoTime } from '@review-desk/server/db/rows';
import type { Queryable } from '@review-desk/server/db/types';
import type { ReplyState, ReviewActionEntry } from '@review-desk/shared';

// The journal of who answered what: each change a user asks for on a review, written before it
// goes upstream (so a stopped BFF leaves it `in_flight`, then `unknown`), finished with the
// service's answer. The review's own record (who answered, as the service keeps it) is the
// upstream's; this is the dashboard's: every attempt, by whom, and how it went.

export const REPLY_MIGRATIONS = migrationsBeside(import.meta.url, 'replies');

/** The most entries a review's history answers (newest first). */
export const ACTIONS_SHOWN = 50;

export type ActionStart = {
  location: string;
  reviewId: string;
  userId: string;
  userEmail: string;
  action: ReviewActionEntry['action'];
  text: string | null;
  key: string | null;
};

export type ActionEnd = {
  outcome: 'done' | 'refused' | 'unknown';
  httpStatus: number | null;
  replyState: ReplyState | null;
  error: string | null;
};

type Row = {
  id: string;
  user_email: string;
  action: ReviewActionEntry['action'];
  text: string | null;
  outcome: ReviewActionEntry['outcome'];
  reply_state: ReplyState | null;
  error: string | null;
  created_at: number;
};

const STALE =
  'The dashboard’s server did not record the answer: the change may or may not have been made. Read the review.';

export function createReviewJournal(db: Queryable) {
  const begin = db.prepare(`INSERT INTO review_actions
    (id, location, review_id, user_id, user_email, action, text, idem_key, outcome, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'in_flight', $9)`);
  const finish = db.prepare(`UPDATE review_actions SET outcome = $2, http_status = $3, reply_state = $4,
    error = $5, finished_at = $6 WHERE id = $1 AND outcome = 'in_flight'`);
  const list = db.prepare(`SELECT id, user_email, action, text, outcome, reply_state, error, created_at
    FROM review_actions WHERE location = $1 AND review_id = $2 ORDER BY created_at DESC, id DESC LIMIT $3`);
  const stale = db.prepare(`UPDATE review_actions SET outcome = 'unknown', error = $1, finished_at = $2
    WHERE outcome = 'in_flight' AND created_at < $3`);
  const drop = db.prepare('DELETE FROM review_actions WHERE created_at < $1');

  return {
    async begin(start: ActionStart, now = Date.now()): Promise<string> {
      const id = randomUUID();
      await begin.run(
        id,
        start.location,
        start.reviewId,
        start.userId,
        start.userEmail,
        start.action,
        start.text,
        start.key,
        now,
      );
      return id;
    },
    async finish(id: string, end: ActionEnd, now = Date.now()): Promise<void> {
      await finish.run(
        id,
        end.outcome,
        end.httpStatus,
        end.replyState,
        end.error?.slice(0, 1000) ?? null,
        now,
      );
    },
    /** A review's history at a location, newest first. */
    async list(location: string, reviewId: string): Promise<ReviewActionEntry[]> {
      const rows = await list.all<Row>(location, reviewId, ACTIONS_SHOWN);
      return rows.map((row) => ({
        id: row.id,
        at: isoTime(Number(row.created_at)),
        by: row.user_email,
        action: row.action,
        text: row.text,
        outcome: row.outcome,
        replyState: row.reply_state,
        error: row.error,
      }));
    },
    /** Entries left in flight longer than any exchange lasts become unknown. */
    async orphanStale(maxAgeMs: number, now = Date.now()): Promise<number> {
      return (await stale.run(STALE, now, now - maxAgeMs)).changes;
    },
    /** History past its retention is dropped. */
    async cleanup(historyMs: number, now = Date.now()): Promise<number> {
      return (await drop.run(now - historyMs)).changes;
    },
    /** The periodic clean-up: stale entries unknown, old history dropped. */
    async sweep(staleAfterMs: number, historyMs: number, now = Date.now()): Promise<void> {
      await this.orphanStale(staleAfterMs, now);
      await this.cleanup(historyMs, now);
    },
  };
}
export type ReviewJournal = ReturnType<typeof createReviewJournal>;
