import type { Database } from '@review-desk/server/db/types';

// The settings_test_sends table (component `settings`, migration 003): the tests a business sent
// its owner. Keyed by the authenticated business, bounded all the same: each business keeps its
// newest TEST_SENDS_KEPT rows, older ones are deleted as new ones are written.

export const HOUR_MS = 3_600_000;
export const TEST_SENDS_KEPT = 20;

export type TestSendStatus = 'sending' | 'sent' | 'failed' | 'unknown';

export type TestSendRow = {
  id: number;
  business_id: number;
  channel: 'sms' | 'email';
  to_addr: string;
  subject: string | null;
  body: string;
  review_link: string;
  status: TestSendStatus;
  error: string | null;
  created_at: number;
};

export type NewTestSend = {
  channel: 'sms' | 'email';
  to: string;
  subject: string | null;
  body: string;
  reviewLink: string;
};

export type Reservation = { ok: true; id: number; remaining: number } | { ok: false; retryAt: number };

const toRow = (row: TestSendRow): TestSendRow => ({
  ...row,
  id: Number(row.id),
  business_id: Number(row.business_id),
  created_at: Number(row.created_at),
});

export type TestSendsStore = ReturnType<typeof createTestSendsStore>;

export function createTestSendsStore(db: Database) {
  return {
    /**
     * Takes one of the business's tests of the last hour and writes the test `sending`, before
     * it leaves; refused (with when the oldest test of the hour stops counting) when `perHour`
     * were sent. Under the business's lock: two calls at once cannot both take the last one.
     */
    async reserve(businessId: number, test: NewTestSend, at: number, perHour: number): Promise<Reservation> {
      return db.transaction(async (tx) => {
        await tx.lock('settings_test_sends', businessId);
        const recent = await tx.all<{ created_at: number | string }>(
          'SELECT created_at FROM settings_test_sends WHERE business_id = $1 AND created_at > $2 ORDER BY created_at',
          businessId,
          at - HOUR_MS,
        );
        if (recent.length >= perHour) return { ok: false, retryAt: Number(recent[0]!.created_at) + HOUR_MS };
        const inserted = await tx.get<{ id: number | string }>(
          `INSERT INTO settings_test_sends (business_id, channel, to_addr, subject, body, review_link, status, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, 'sending', $7) RETURNING id`,
          businessId,
          test.channel,
          test.to,
          test.subject,
          test.body,
          test.reviewLink,
          at,
        );
        await tx.run(
          `DELETE FROM settings_test_sends WHERE business_id = $1 AND id NOT IN
             (SELECT id FROM settings_test_sends WHERE business_id = $1 ORDER BY id DESC LIMIT $2)`,
          businessId,
          TEST_SENDS_KEPT,
        );
        return { ok: true, id: Number(inserted!.id), remaining: perHour - recent.length - 1 };
      });
    },

    async finish(
      id: number,
      status: Exclude<TestSendStatus, 'sending'>,
      error: string | null,
    ): Promise<void> {
      await db.run('UPDATE settings_test_sends SET status = $2, error = $3 WHERE id = $1', id, status, error);
    },

    /** Newest first, every business's (the development outbox), by recipient or test id. */
    async list(
      filter: { to?: string | undefined; id?: number | undefined },
      limit: number,
    ): Promise<TestSendRow[]> {
      const where: string[] = [];
      const params: (string | number)[] = [];
      if (filter.to !== undefined) {
        params.push(filter.to);
        where.push(`to_addr = $${params.length}`);
      }
      if (filter.id !== undefined) {
        params.push(filter.id);
        where.push(`id = $${params.length}`);
      }
      params.push(limit);
      const rows = await db.all<TestSendRow>(
        `SELECT * FROM settings_test_sends ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
        ...params,
      );
      return rows.map(toRow);
    },
  };
}
