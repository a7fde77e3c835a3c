import { describeEngines, useTestDatabase } from '@review-desk/server/test-support/databases';
import { beforeEach, expect, it } from 'vitest';
import { REQUESTS_MIGRATIONS } from '../requests/origins.ts';
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
  const database = useTestDatabase(dialect, {
    // The requests' migration adds the cancellation's column to delivery_requests.
    migrations: [DELIVERY_MIGRATIONS, REQUESTS_MIGRATIONS],
  });
  const store = () => deliveryStore(database().db);

  beforeEach(async () => {
    await database().db.exec(
      'DELETE FROM delivery_legs; DELETE FROM delivery_requests; DELETE FROM sms_opt_outs; DELETE FROM sms_number_opt_outs; DELETE FROM delivery_early_receipts;',
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

    const from = '+15005550006';
    expect(await s.isOptedOut(7, '+14155550100', from)).toBe(false);
    await s.setOptOut(7, '+14155550100', true, 7000);
    expect(await s.isOptedOut(7, '+14155550100', from)).toBe(true);
    expect(await s.isOptedOut(8, '+14155550100', from)).toBe(false);
    await s.setOptOut(7, '+14155550100', false, 8000);
    expect(await s.isOptedOut(7, '+14155550100', from)).toBe(false);
  });

  it('applies STOP and START to a number once each, the newest message winning, for every business', async () => {
    const s = store();
    const phone = '+14155550111';
    const from = '+15005550006';
    const keyword = (messageSid: string, optOut: boolean, messageAt: number) =>
      s.applyNumberKeyword({ sender: from, phone, optOut, messageSid, messageAt, at: 99_000 });
    // Nobody texted this phone: its STOP still holds, for every business sending from the number.
    expect(await keyword('SM-stop-1', true, 1_000)).toBe(true);
    for (const business of [7, 8]) expect(await s.isOptedOut(business, phone, from)).toBe(true);
    expect(await s.isOptedOut(7, phone, '+15005550007')).toBe(false);
    expect(await keyword('SM-start-2', false, 2_000)).toBe(true);
    expect(await s.isOptedOut(7, phone, from)).toBe(false);
    expect(await keyword('SM-stop-3', true, 3_000)).toBe(true);
    // The START replayed, and an older START arriving late: nothing changes.
    expect(await keyword('SM-start-2', false, 2_000)).toBe(false);
    expect(await keyword('SM-start-0', false, 500)).toBe(false);
    expect(await s.isOptedOut(7, phone, from)).toBe(true);
    // At the same second an opt-out wins; a newer START opts in, and lifts older per-business opt-outs.
    expect(await keyword('SM-start-3', false, 3_000)).toBe(false);
    await s.setOptOut(8, phone, true, 3_500);
    expect(await keyword('SM-start-4', false, 4_000)).toBe(true);
    for (const business of [7, 8]) expect(await s.isOptedOut(business, phone, from)).toBe(false);
    // A per-business opt-out newer than the START stays.
    await s.setOptOut(8, phone, true, 5_000);
    expect(await keyword('SM-stop-5', true, 4_500)).toBe(true);
    expect(await keyword('SM-start-6', false, 4_800)).toBe(true);
    expect(await s.isOptedOut(8, phone, from)).toBe(true);
    expect(await s.isOptedOut(7, phone, from)).toBe(false);
  });
});
