import { describeEngines, useTestDatabase } from '@review-desk/server/test-support/databases';
import { beforeEach, expect, it } from 'vitest';
import { DELIVERY_MIGRATIONS, deliveryStore, type NewLeg } from './store.ts';

const leg = (over: Partial<NewLeg> = {}): NewLeg => ({
  channel: 'sms',
  provider: 'twilio',
  to: '+14155550100',
  sender: '+15005550006',
  providerMessageId: `SM${'1'.repeat(32)}`,
  state: 'queued',
  errorCode: null,
  error: null,
  segments: 1,
  ...over,
});

/** A request of business 1 being sent (an SMS) at 1000. */
const sending = (requestId: string) =>
  ({ requestId, businessId: 1, channel: 'sms', status: 'sending', scheduledFor: null, at: 1000 }) as const;

describeEngines('delivery store', (dialect) => {
  const database = useTestDatabase(dialect, { migrations: [DELIVERY_MIGRATIONS] });
  const store = () => deliveryStore(database().db);

  beforeEach(async () => {
    await database().db.exec(
      'DELETE FROM delivery_legs; DELETE FROM delivery_requests; DELETE FROM sms_opt_outs; DELETE FROM delivery_early_receipts;',
    );
  });

  it('records a request and its legs, and receipts only ever move a leg forward', async () => {
    const s = store();
    await s.createRequest(sending('req_a'));
    await s.recordLegs('req_a', 1, [leg()], 'sent', 1001);
    const sid = `SM${'1'.repeat(32)}`;
    expect(await s.applyReceipt(sid, 'delivered', null, null, 1002)).toBe('changed');
    expect(await s.applyReceipt(sid, 'sent', null, null, 1003)).toBe('unchanged');
    expect(await s.applyReceipt(sid, 'undelivered', '30003', 'x', 1004)).toBe('unchanged');
    const [stored] = await s.legs('req_a');
    expect(stored).toMatchObject({ state: 'delivered', updated_at: 1002, segments: 1, business_id: 1 });
    expect(await s.request(1, 'req_a')).toMatchObject({ status: 'sent', created_at: 1000 });
    expect(await s.request(2, 'req_a')).toBeUndefined();
  });

  it('holds a receipt that comes before its leg is recorded, and applies it when the leg is', async () => {
    const s = store();
    await s.createRequest(sending('req_early'));
    const sid = `SM${'1'.repeat(32)}`;
    // The carrier's callback outruns the send's own record of the message.
    expect(await s.applyReceipt(sid, 'delivered', null, null, 1002)).toBe('held');
    expect(await s.applyReceipt(sid, 'sent', null, null, 1001)).toBe('held');
    await s.recordLegs('req_early', 1, [leg()], 'sent', 1001);
    const [stored] = await s.legs('req_early');
    expect(stored).toMatchObject({ state: 'delivered', updated_at: 1002 });
    // Applied once: held no more.
    expect(await database().db.get('SELECT count(*) AS n FROM delivery_early_receipts')).toEqual({ n: 0 });
  });

  it('lists newest first with filters and a total; remembers STOP and START per business', async () => {
    const s = store();
    for (const [i, channel] of (['sms', 'email', 'sms', 'link'] as const).entries()) {
      await s.createRequest({
        requestId: `req_${i}`,
        businessId: 7,
        channel,
        status: i === 2 ? 'scheduled' : 'sent',
        scheduledFor: null,
        at: 5000,
      });
    }
    const all = await s.list(7, { page: 1, limit: 2 });
    expect(all.total).toBe(4);
    expect(all.rows.map((r) => r.request_id)).toEqual(['req_3', 'req_2']);
    expect((await s.list(7, { page: 1, limit: 10, channel: 'sms' })).rows.map((r) => r.request_id)).toEqual([
      'req_2',
      'req_0',
    ]);
    expect((await s.list(7, { page: 1, limit: 10, status: 'scheduled' })).total).toBe(1);
    expect((await s.list(8, { page: 1, limit: 10 })).total).toBe(0);

    await s.recordLegs('req_0', 7, [leg({ providerMessageId: null })], 'sent', 6000);
    expect(await s.businessTexting('+14155550100', '+15005550006')).toBe(7);
    expect(await s.businessTexting('+14155550100', '+15005550007')).toBeNull();
    expect(await s.isOptedOut(7, '+14155550100')).toBe(false);
    await s.setOptOut(7, '+14155550100', true, 7000);
    expect(await s.isOptedOut(7, '+14155550100')).toBe(true);
    expect(await s.isOptedOut(8, '+14155550100')).toBe(false);
    await s.setOptOut(7, '+14155550100', false, 8000);
    expect(await s.isOptedOut(7, '+14155550100')).toBe(false);
  });
});
