import type { Clock } from '@review-desk/server/clock';
import { migrationsBeside } from '@review-desk/server/db/migrate';
import type { Database, Queryable, SqlValue } from '@review-desk/server/db/types';
import { ALERT_LIST_MAX, type AlertChannel } from '@review-desk/shared/alerts';
import { createPreferenceStore, type Subscriber } from './preferences.ts';

export type { Subscriber } from './preferences.ts';

// The alerts' tables (component `alerts`, own migrations): each user's preferences, what each
// location's polls have seen, and the alerts raised; a location is named by its id, never its slug. A review is new to a location once (the seen
// table's key); an alert exists once per user and review (the alerts' unique key), so neither a
// restart, a second process nor a retried poll can raise it twice.

export const ALERT_MIGRATIONS = migrationsBeside(import.meta.url, 'alerts');

/** A review as a poll found it, reduced to what an alert keeps (never a contact). */
export type SeenReview = {
  id: string;
  rating: number;
  author: string | null;
  excerpt: string | null;
  reviewDate: string | null;
};

export type RaisedAlert = SeenReview & { alertId: number; userId: string; channel: AlertChannel };

export type EmailState = 'none' | 'pending' | 'sent' | 'failed';

type AlertRow = {
  id: number;
  location: string;
  review_id: string;
  rating: number;
  author: string | null;
  excerpt: string | null;
  review_date: string | null;
  created_at: number;
  read_at: number | null;
};

export type StoredAlert = {
  id: number;
  location: string;
  reviewId: string;
  rating: number;
  author: string | null;
  excerpt: string | null;
  reviewDate: string | null;
  createdAt: number;
  read: boolean;
};

/** `AND location IN (…)` for a user's reach (location ids), numbered from `first`; all locations: nothing. */
function reachFilter(ids: readonly string[] | 'all', first: number): { sql: string; params: string[] } {
  if (ids === 'all') return { sql: '', params: [] };
  if (ids.length === 0) return { sql: ' AND 1 = 0', params: [] };
  const list = ids.map((_, i) => `$${first + i}`).join(', ');
  return { sql: ` AND location IN (${list})`, params: [...ids] };
}

export type AlertStore = ReturnType<typeof createAlertStore>;

export function createAlertStore(db: Database, clock: Clock) {
  /** Marks these ids seen; returns those no poll had seen before. */
  async function markSeen(tx: Queryable, location: string, ids: readonly string[], at: number) {
    const fresh = new Set<string>();
    for (const id of ids) {
      const row = await tx.get<{ review_id: string }>(
        `INSERT INTO alert_seen (location, review_id, seen_at) VALUES ($1, $2, $3)
         ON CONFLICT (location, review_id) DO NOTHING RETURNING review_id`,
        location,
        id,
        at,
      );
      if (row) fresh.add(id);
    }
    return fresh;
  }

  return {
    ...createPreferenceStore(db, clock),

    /**
     * Records one successful poll of a location in one transaction: the reviews it found are
     * marked seen, and each one no poll had seen before raises an alert for each subscriber
     * `decide` picks. The first poll of a location only records (its reviews are the baseline).
     * `decide` receives the start of the previous successful poll.
     */
    async recordPoll(
      location: string,
      startedAt: number,
      reviews: readonly SeenReview[],
      decide: (review: SeenReview, previousPollAt: number) => readonly Subscriber[],
      emailFor: (subscriber: Subscriber) => EmailState,
    ): Promise<{ baseline: boolean; fresh: number; raised: RaisedAlert[] }> {
      return db.transaction(async (tx) => {
        await tx.lock('alert_watch', location);
        const watch = await tx.get<{ polled_at: number | null }>(
          'SELECT polled_at FROM alert_watches WHERE location = $1',
          location,
        );
        const previous = watch?.polled_at == null ? null : Number(watch.polled_at);
        const fresh = await markSeen(
          tx,
          location,
          reviews.map((r) => r.id),
          clock.now(),
        );
        const raised: RaisedAlert[] = [];
        if (previous !== null) {
          for (const review of reviews) {
            if (!fresh.has(review.id)) continue;
            for (const subscriber of decide(review, previous)) {
              const row = await tx.get<{ id: number }>(
                `INSERT INTO alerts (user_id, location, review_id, rating, author, excerpt, review_date, created_at, email)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                 ON CONFLICT (user_id, location, review_id) DO NOTHING RETURNING id`,
                subscriber.userId,
                location,
                review.id,
                review.rating,
                review.author,
                review.excerpt,
                review.reviewDate,
                clock.now(),
                emailFor(subscriber),
              );
              if (row)
                raised.push({
                  ...review,
                  alertId: Number(row.id),
                  userId: subscriber.userId,
                  channel: subscriber.channel,
                });
            }
          }
        }
        // The poll's start, never later: a review left while it ran is new to the next one.
        await tx.run(
          `INSERT INTO alert_watches (location, polled_at, failures, last_error, updated_at)
           VALUES ($1, $2, 0, NULL, $3)
           ON CONFLICT (location) DO UPDATE SET polled_at = excluded.polled_at, failures = 0,
             last_error = NULL, updated_at = excluded.updated_at`,
          location,
          startedAt,
          clock.now(),
        );
        return { baseline: previous === null, fresh: fresh.size, raised };
      });
    },

    /** Which of these ids a poll has already seen at this location. */
    async seenAmong(location: string, ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const list = ids.map((_, i) => `$${i + 2}`).join(', ');
      const rows = await db.all<{ review_id: string }>(
        `SELECT review_id FROM alert_seen WHERE location = $1 AND review_id IN (${list})`,
        location,
        ...ids,
      );
      return new Set(rows.map((r) => r.review_id));
    },

    /** A failed poll: returns the failures in a row (the back-off grows with them). */
    async recordFailure(location: string, error: string): Promise<number> {
      const row = await db.get<{ failures: number }>(
        `INSERT INTO alert_watches (location, polled_at, failures, last_error, updated_at)
         VALUES ($1, NULL, 1, $2, $3)
         ON CONFLICT (location) DO UPDATE SET failures = alert_watches.failures + 1,
           last_error = excluded.last_error, updated_at = excluded.updated_at
         RETURNING failures`,
        location,
        error.slice(0, 500),
        clock.now(),
      );
      return Number(row?.failures ?? 1);
    },

    /**
     * Since when a user turned on at `enabledAt` is alerted of every new review at these
     * locations: once each has had a poll that started after then (the earliest such start);
     * null while one has not.
     */
    async activeSince(locations: readonly string[], enabledAt: number): Promise<number | null> {
      if (locations.length === 0) return null;
      const list = locations.map((_, i) => `$${i + 1}`).join(', ');
      const rows = await db.all<{ polled_at: number | null }>(
        `SELECT polled_at FROM alert_watches WHERE location IN (${list})`,
        ...locations,
      );
      const times = rows.map((r) => (r.polled_at == null ? null : Number(r.polled_at)));
      if (times.length < locations.length || times.some((t) => t === null || t < enabledAt)) return null;
      return Math.min(...(times as number[]));
    },

    async watch(location: string) {
      const row = await db.get<{ polled_at: number | null; failures: number; last_error: string | null }>(
        'SELECT polled_at, failures, last_error FROM alert_watches WHERE location = $1',
        location,
      );
      return row
        ? {
            polledAt: row.polled_at == null ? null : Number(row.polled_at),
            failures: Number(row.failures),
            lastError: row.last_error,
          }
        : null;
    },

    async setEmailState(alertId: number, state: EmailState, error: string | null = null): Promise<void> {
      await db.run('UPDATE alerts SET email = $2, email_error = $3 WHERE id = $1', alertId, state, error);
    },

    /** The user's newest alerts within their reach, and how many of those are unread. */
    async list(
      userId: string,
      reach: readonly string[] | 'all',
      limit = ALERT_LIST_MAX,
    ): Promise<{ unread: number; alerts: StoredAlert[] }> {
      const filter = reachFilter(reach, 2);
      const params: SqlValue[] = [userId, ...filter.params];
      const rows = await db.all<AlertRow>(
        `SELECT id, location, review_id, rating, author, excerpt, review_date, created_at, read_at
         FROM alerts WHERE user_id = $1${filter.sql} ORDER BY id DESC LIMIT ${Math.trunc(limit)}`,
        ...params,
      );
      const count = await db.get<{ n: number }>(
        `SELECT count(*) AS n FROM alerts WHERE user_id = $1 AND read_at IS NULL${filter.sql}`,
        ...params,
      );
      return {
        unread: Number(count?.n ?? 0),
        alerts: rows.map((r) => ({
          id: Number(r.id),
          location: r.location,
          reviewId: r.review_id,
          rating: Number(r.rating),
          author: r.author,
          excerpt: r.excerpt,
          reviewDate: r.review_date,
          createdAt: Number(r.created_at),
          read: r.read_at !== null,
        })),
      };
    },

    /** Marks the user's alerts read (only theirs: another user's id changes nothing). */
    async markRead(userId: string, which: { ids: readonly number[] } | { all: true }): Promise<number> {
      const now = clock.now();
      if ('all' in which) {
        return (
          await db.run('UPDATE alerts SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL', userId, now)
        ).changes;
      }
      const list = which.ids.map((_, i) => `$${i + 3}`).join(', ');
      return (
        await db.run(
          `UPDATE alerts SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL AND id IN (${list})`,
          userId,
          now,
          ...which.ids,
        )
      ).changes;
    },

    /** A removed user's preferences and alerts go with them. */
    async forgetUser(userId: string): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.run('DELETE FROM alert_preferences WHERE user_id = $1', userId);
        await tx.run('DELETE FROM alerts WHERE user_id = $1', userId);
      });
    },
  };
}
