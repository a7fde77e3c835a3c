import type { Clock } from '@review-desk/server/clock';
import type { Database } from '@review-desk/server/db/types';

// The alert_digests table: one row per user and week, written before the email is handed over.

export type DigestState = 'sending' | 'sent' | 'failed';

export type DigestStore = ReturnType<typeof createDigestStore>;

export function createDigestStore(db: Database, clock: Clock) {
  const claim = db.prepare(`INSERT INTO alert_digests (user_id, week, state, created_at)
    VALUES ($1, $2, 'sending', $3) ON CONFLICT (user_id, week) DO NOTHING RETURNING week`);
  const finish = db.prepare(
    'UPDATE alert_digests SET state = $3, figures = $4, error = $5, sent_at = $6 WHERE user_id = $1 AND week = $2',
  );
  const one = db.prepare('SELECT state FROM alert_digests WHERE user_id = $1 AND week = $2');
  return {
    /** True for the one caller that may send this user's digest of this week. */
    async claim(userId: string, week: string): Promise<boolean> {
      return (await claim.get(userId, week, clock.now())) !== undefined;
    },
    async exists(userId: string, week: string): Promise<boolean> {
      return (await one.get(userId, week)) !== undefined;
    },
    async finish(userId: string, week: string, state: DigestState, figures: unknown, error: string | null) {
      await finish.run(
        userId,
        week,
        state,
        JSON.stringify(figures),
        error?.slice(0, 500) ?? null,
        state === 'sent' ? clock.now() : null,
      );
    },
    async list(userId: string): Promise<{ week: string; state: DigestState }[]> {
      return db.all<{ week: string; state: DigestState }>(
        'SELECT week, state FROM alert_digests WHERE user_id = $1 ORDER BY week',
        userId,
      );
    },
  };
}
