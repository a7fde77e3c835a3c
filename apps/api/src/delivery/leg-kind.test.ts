import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate } from '@review-desk/server/db/migrate';
import { describeEngines, useTestDatabase } from '@review-desk/server/test-support/databases';
import { afterAll, expect, it } from 'vitest';
import { REQUESTS_MIGRATIONS } from '../requests/origins.ts';
import { DELIVERY_MIGRATIONS, deliveryStore, type NewLeg } from './store.ts';

// A request's legs of each kind: the send's (`request`) and the reminder's (`reminder`) are kept
// side by side for the same channel, each moved by its own receipts; a database written before
// legs had a kind keeps its legs as the send's.

const leg = (sid: string, over: Partial<NewLeg> = {}): NewLeg => ({
  channel: 'sms',
  provider: 'twilio',
  to: '+14155550100',
  sender: '+15005550006',
  providerMessageId: sid,
  state: 'queued',
  errorCode: null,
  error: null,
  segments: 1,
  ...over,
});

// The delivery migrations as they were before the kind: only 001, same component.
const before = mkdtempSync(path.join(tmpdir(), 'rd-delivery-001-'));
cpSync(path.join(DELIVERY_MIGRATIONS.dir, '001-delivery.sql'), path.join(before, '001-delivery.sql'));
afterAll(() => rmSync(before, { recursive: true, force: true }));

describeEngines('delivery legs by kind', (dialect) => {
  const database = useTestDatabase(dialect, { migrations: [{ component: 'delivery', dir: before }] });

  it('keeps the legs written before the kind as the send’s, then takes the reminder’s beside them', async () => {
    const { db } = database();
    // Written as the earlier version did (its statements, not today's store, which knows the kind).
    await db.run(
      `INSERT INTO delivery_requests (request_id, business_id, channel, status, created_at, updated_at)
       VALUES ('req_old', 1, 'sms', 'sending', 1000, 1000)`,
    );
    await db.run(
      `INSERT INTO delivery_legs (request_id, channel, business_id, provider, to_addr, state, updated_at)
       VALUES ('req_old', 'sms', 1, 'twilio', '+14155550100', 'delivered', 1001)`,
    );
    // Today's delivery migrations, and the requests' column of cancellations the store reads.
    await migrate(db, [DELIVERY_MIGRATIONS, REQUESTS_MIGRATIONS]);

    const store = deliveryStore(db);
    expect(await store.legs('req_old')).toMatchObject([{ kind: 'request', state: 'delivered' }]);

    const sid = (n: string) => `SM${n.repeat(32)}`;
    await store.recordReminderLegs('req_old', 1, [leg(sid('a'))], 2_000);
    await store.recordReminderLegs('req_old', 1, [leg(sid('a'), { state: 'sent' })], 2_001); // the same leg again
    expect(await store.applyReceipt(sid('a'), 'undelivered', '30003', 'Unreachable.', 2_500)).toBe('changed');
    const legs = await store.legs('req_old');
    expect(legs.map((l) => [l.kind, l.channel, l.state])).toEqual([
      ['request', 'sms', 'delivered'],
      ['reminder', 'sms', 'undelivered'],
    ]);
    // The reminder never changes the request's status.
    expect((await store.request(1, 'req_old'))?.status).toBe('sending');
    expect((await store.legsFor(['req_old'])).get('req_old')?.map((l) => l.kind)).toEqual([
      'request',
      'reminder',
    ]);
    await expect(
      db.run(
        `INSERT INTO delivery_legs (request_id, channel, kind, business_id, provider, to_addr, state, updated_at)
         VALUES ('req_old', 'email', 'followup', 1, 'smtp', 'a@example.com', 'sent', 3000)`,
      ),
    ).rejects.toThrow();
  });
});
