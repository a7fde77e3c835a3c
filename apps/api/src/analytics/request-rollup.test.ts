import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate } from '@review-desk/server/db/migrate';
import { openMigratedDatabase } from '@review-desk/server/db/open';
import { createPostgresDatabase, describeEngines } from '@review-desk/server/test-support/databases';
import { emailContactKey } from '@review-desk/shared/contact';
import { afterAll, expect, it } from 'vitest';
import { API_MIGRATIONS } from '../store/database.ts';
import { emptyRequestDelta, requestRollup } from './request-rollup.ts';
import { analyticsStore } from './store.ts';

// A day's request roll-up in slots: a database written before them keeps its figures (as slot 0),
// and whatever slots the writes land in, a day reads as their sum.

const scratch = mkdtempSync(path.join(tmpdir(), 'rd-rollup-slots-'));
const before = path.join(scratch, 'migrations');
for (const file of ['001-initial.sql', '002-email-contact-key.sql', '003-opt-out-contact-key.sql'])
  cpSync(path.join(API_MIGRATIONS.dir, file), path.join(before, file));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describeEngines('request roll-up slots', (dialect) => {
  it('keeps the days written before the slots, and sums a day over its slots', async () => {
    const pg = dialect === 'postgres' ? await createPostgresDatabase() : null;
    const db = await openMigratedDatabase(
      {
        url: pg?.url ?? path.join(scratch, `${dialect}.db`),
        sqliteFunctions: { email_contact_key: (e) => (typeof e === 'string' ? emailContactKey(e) : null) },
      },
      [{ component: 'api', dir: before }],
    );
    try {
      // Written as the earlier version did: one row per day.
      await db.run(`INSERT INTO request_daily (business_id, day, total, sent, failed, clicked, sms)
        VALUES (7, 100, 5, 4, 1, 2, 5), (7, 101, 1, 1, 0, 0, 1)`);
      await migrate(db, [API_MIGRATIONS]);
      expect(await db.all('SELECT day, slot, total FROM request_daily ORDER BY day')).toEqual([
        { day: 100, slot: 0, total: 5 },
        { day: 101, slot: 0, total: 1 },
      ]);

      // Forty sends at once: on PostgreSQL they are written from several connections.
      const add = requestRollup(db);
      await Promise.all(
        Array.from({ length: 40 }, () =>
          db.transaction(() => add(7, 100, { ...emptyRequestDelta(), total: 1, sent: 1, sms: 1 })),
        ),
      );
      const rows = await db.all<{ n: number }>(
        'SELECT count(*) AS n FROM request_daily WHERE business_id = 7 AND day = 100',
      );
      // PostgreSQL writes each connection's slot; SQLite keeps slot 0.
      if (dialect === 'postgres') expect(Number(rows[0]!.n)).toBeGreaterThan(1);
      else expect(Number(rows[0]!.n)).toBe(1);

      const analytics = analyticsStore(db);
      expect(await analytics.requestTotals(7, 100, 101)).toMatchObject({
        total: 46,
        sent: 45,
        failed: 1,
        clicked: 2,
        sms: 46,
      });
      const days = await analytics.requestDays(7, 100, 101);
      expect(days.sort((a, b) => a[0] - b[0])).toEqual([
        [100, 44, 0],
        [101, 1, 0],
      ]);
    } finally {
      await db.close();
      await pg?.drop();
    }
  });
});
