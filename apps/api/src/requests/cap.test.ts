import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPostgresDatabase, describeEngines } from '@review-desk/server/test-support/databases';
import { CHANNELS, countsTowardCap, DAY_MS } from '@review-desk/shared';
import { afterAll, expect, it } from 'vitest';
import { openApiDatabase } from '../store/database.ts';
import { requestStore } from './store.ts';

// Which earlier sends count toward the frequency cap is written once, in shared countsTowardCap;
// the store's SQL (the check a send makes, and the reminder's "sent another request since") must
// say the same: every status, channel and failed leg, inside and outside the window, per contact.

const scratch = mkdtempSync(path.join(tmpdir(), 'rd-cap-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const NOW = Date.UTC(2030, 5, 1);
const CAP_DAYS = 30;

describeEngines('the frequency cap', (dialect) => {
  it('counts in SQL exactly the earlier sends countsTowardCap counts', async () => {
    const pg = dialect === 'postgres' ? await createPostgresDatabase() : null;
    const db = await openApiDatabase(
      pg ? { databaseUrl: pg.url, databasePath: '' } : { databasePath: path.join(scratch, 'api.db') },
    );
    try {
      const requests = requestStore(db);
      await db.run("INSERT INTO businesses (slug, name, created_at) VALUES ('b', 'B', 0)");
      const cases = [];
      let n = 0;
      for (const status of ['sending', 'sent', 'failed'] as const)
        for (const channel of CHANNELS)
          for (const failedLeg of [null, 'sms', 'email'] as const)
            for (const age of [0, CAP_DAYS * DAY_MS - 1, CAP_DAYS * DAY_MS, CAP_DAYS * DAY_MS + 1]) {
              n++;
              const phone = `+1415555${String(n).padStart(4, '0')}`;
              const email = `c${n}@example.com`;
              const createdAt = NOW - age;
              await db.run(
                `INSERT INTO requests (public_id, token, business_id, channel, customer_phone, customer_email,
                   email_key, status, failed_leg, created_at)
                 VALUES ($1, $2, 1, $3, $4, $5, $5, $6, $7, $8)`,
                `req_${n}`,
                `token_${n}`,
                channel,
                phone,
                email,
                status,
                failedLeg,
                createdAt,
              );
              cases.push({ earlier: { status, channel, failedLeg, createdAt }, phone, email });
            }
      const since = NOW - CAP_DAYS * DAY_MS;
      const window = { now: NOW, capDays: CAP_DAYS };
      const found = await Promise.all(
        cases.map(async ({ earlier, phone, email }) => ({
          earlier,
          phone: await requests.contactedSince(1, { phone }, since),
          email: await requests.contactedSince(1, { email }, since),
        })),
      );
      expect(found).toEqual(
        cases.map(({ earlier }) => ({
          earlier,
          phone: countsTowardCap(earlier, window, 'phone'),
          email: countsTowardCap(earlier, window, 'email'),
        })),
      );
      // Not vacuous: both answers occur.
      expect(found.filter((f) => f.phone).length).toBeGreaterThan(10);
      expect(found.filter((f) => !f.phone).length).toBeGreaterThan(10);
    } finally {
      await db.close();
    }
  });
});
