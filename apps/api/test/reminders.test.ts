import { FakeClock } from '@review-desk/server/clock';
import { analyticsOutputSchema, sendResultSchema, successEnvelopeSchema } from '@review-desk/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { optOut, recordOpen, submitFeedback } from '../src/review-page/visits.ts';
import {
  ENGINES,
  getJson,
  outboxFor as outboxOf,
  send as sendAs,
  uniqueEmail,
  uniquePhone,
  useTestApi,
  writeJson,
} from './helpers.ts';

// The one automatic reminder, on a fake clock: sent once after the business's delay to a
// customer who did nothing; a click, an opt-out or a newer request cancels it; never for a link;
// held for the sending hours; counted apart in analytics.

describe.each(ENGINES)('%s', (engine) => {
  const DAY = 86_400_000;
  const START = Date.parse('2030-03-04T10:00:00Z');
  // Frozen: time moves only when a test moves it, so a request's due time is exactly its delay away.
  const clock = new FakeClock(START, { frozen: true });

  const api = useTestApi(
    { monthlySendAllowance: 0, frequencyCapDays: 0, quietHours: null, businessTimeZone: 'UTC' },
    { engine, clock },
  );
  let key: string;

  beforeAll(async () => {
    await api.business('salon', 'Salon Nova', null);
    key = await api.key('salon');
    const put = await putSettings({ reminderAfterDays: 2 });
    expect(put.status).toBe(200);
  });

  const putSettings = (body: unknown) => writeJson(api, 'PUT', '/api/v1/settings', key, body);
  const outboxFor = (requestId: string) => outboxOf(api, requestId);

  async function send(body: Record<string, unknown>) {
    const result = await sendAs(api, key, body);
    const data = successEnvelopeSchema(sendResultSchema).parse(result.body).data;
    const row = (await api.ctx.store.requests.byPublicId(data.requestId))!;
    return { ...data, token: row.token };
  }

  /** Runs every reminder due on the clock, and what they lead to: what has not happened now will not. */
  const drain = () => api.ctx.jobs.drain();
  const stateOf = async (requestId: string) => (await api.ctx.reminders.stateOf(requestId))?.state;

  describe('the reminder', () => {
    it('goes once, after the delay, with the same words, to a customer who did nothing', async () => {
      const quiet = await send({ customerName: 'Ines', customerPhone: uniquePhone() });
      expect(await outboxFor(quiet.requestId)).toHaveLength(1);
      expect(await stateOf(quiet.requestId)).toBe('pending');
      // Due two days after the send itself (the clock runs on while the service starts).
      const sentAt = Number((await api.ctx.store.requests.byPublicId(quiet.requestId))!.created_at);

      clock.set(sentAt + 2 * DAY - 60_000);
      await drain();
      expect(await outboxFor(quiet.requestId)).toHaveLength(1);

      clock.set(sentAt + 2 * DAY);
      await drain();
      expect(await outboxFor(quiet.requestId)).toHaveLength(2);
      const [reminder, first] = await outboxFor(quiet.requestId);
      expect(reminder!.body).toBe(first!.body);
      expect(reminder!.to).toBe(first!.to);
      expect(await stateOf(quiet.requestId)).toBe('sent');

      clock.advance(5 * DAY);
      await drain();
      expect(await outboxFor(quiet.requestId)).toHaveLength(2);
    });

    it('is cancelled by a click, an opt-out (on the page or by STOP) or a newer request; never made for a link', async () => {
      const t0 = clock.now();
      const opened = await send({ customerPhone: uniquePhone() });
      const optedOut = await send({ customerEmail: uniqueEmail(), channel: 'email' });
      const phone = uniquePhone();
      const superseded = await send({ customerPhone: phone });
      const link = await send({ channel: 'link' });
      const stopPhone = uniquePhone();
      const textedStop = await send({ customerPhone: stopPhone });

      await recordOpen(api.ctx.store, opened.token, clock.now());
      await optOut(api.ctx.store, optedOut.token, clock.now());
      const businessId = (await api.ctx.store.businesses.bySlug('salon'))!.id;
      await (await api.ctx.tracker.store()).setOptOut(businessId, stopPhone, true, clock.now()); // texted STOP
      clock.advance(DAY);
      await send({ customerPhone: phone }); // a new request to the same customer

      clock.set(t0 + 2 * DAY + 1_000);
      await drain();
      expect(await stateOf(superseded.requestId)).toBe('skipped');
      expect(await stateOf(opened.requestId)).toBe('skipped');
      expect(await stateOf(optedOut.requestId)).toBe('skipped');
      expect(await api.ctx.reminders.stateOf(opened.requestId)).toMatchObject({
        reason: 'the customer opened the link',
      });
      expect(await api.ctx.reminders.stateOf(optedOut.requestId)).toMatchObject({
        reason: 'the customer opted out',
      });
      expect(await api.ctx.reminders.stateOf(superseded.requestId)).toMatchObject({
        reason: 'the customer was sent another request since',
      });
      expect(await stateOf(textedStop.requestId)).toBe('skipped');
      for (const request of [opened, optedOut, superseded, textedStop])
        expect(await outboxFor(request.requestId)).toHaveLength(1);
      expect(await stateOf(link.requestId)).toBeUndefined();
    });

    it('waits for the sending hours, and is counted apart in analytics with the completions after it', async () => {
      await putSettings({ quietHours: { start: '09:00', end: '17:00' }, timeZone: 'UTC' });
      // 20:00 UTC: due two days later at 20:00, outside the hours; sent at 09:00 the day after.
      const evening = Date.parse('2030-04-01T20:00:00Z');
      clock.set(Date.parse('2030-04-01T12:00:00Z'));
      await putSettings({ quietHours: null });
      clock.set(evening);
      await drain(); // the reminders earlier tests left due go now
      const analyticsNow = async () => {
        const result = await getJson(api, '/api/v1/analytics?days=7', key);
        return successEnvelopeSchema(analyticsOutputSchema).parse(result.body).data.reminders!;
      };
      const before = await analyticsNow();
      const request = await send({ customerPhone: uniquePhone() });
      await putSettings({ quietHours: { start: '09:00', end: '17:00' } });

      clock.set(evening + 2 * DAY);
      await drain();
      expect(await outboxFor(request.requestId)).toHaveLength(1);
      expect(await stateOf(request.requestId)).toBe('pending');
      clock.set(Date.parse('2030-04-04T09:00:00Z'));
      await drain();
      expect(await outboxFor(request.requestId)).toHaveLength(2);

      // The customer answers the reminder.
      clock.advance(3_600_000);
      await submitFeedback(api.ctx.store, request.token, { rating: 5, comment: '' }, clock.now());
      expect(await analyticsNow()).toEqual({
        sent: before.sent + 1,
        completedAfter: before.completedAfter + 1,
      });
      await putSettings({ quietHours: null });
    });
    it('is skipped for a business suspended since the send', async () => {
      const request = await send({ customerPhone: uniquePhone() });
      const businessId = (await api.ctx.store.businesses.bySlug('salon'))!.id;
      await api.ctx.store.businesses.setSuspended(businessId, clock.now());
      try {
        clock.advance(2 * DAY + 1_000);
        await drain();
        expect(await stateOf(request.requestId)).toBe('skipped');
        expect(await api.ctx.reminders.stateOf(request.requestId)).toMatchObject({
          reason: 'the business is suspended',
        });
        expect(await outboxFor(request.requestId)).toHaveLength(1);
      } finally {
        await api.ctx.store.businesses.setSuspended(businessId, null);
      }
    });
  });

  describe('their jobs', () => {
    it('are deleted once finished longer ago than the retention, by the service’s own retention job', async () => {
      const request = await send({ customerPhone: uniquePhone() });
      clock.advance(2 * DAY + 1_000);
      await drain();
      expect(await stateOf(request.requestId)).toBe('sent');
      const db = api.ctx.store.db;
      const finishedReminders = async () =>
        Number(
          (
            await db.get<{ n: number }>(
              `SELECT count(*) AS n FROM jobs WHERE kind = 'reminders.send' AND state IN ('done', 'failed', 'cancelled')`,
            )
          )?.n,
        );
      expect(await finishedReminders()).toBeGreaterThan(0);
      expect(await db.get(`SELECT state FROM jobs WHERE kind = 'jobs.retention'`)).toEqual({
        state: 'pending',
      });
      clock.advance(15 * DAY);
      await drain();
      expect(await finishedReminders()).toBe(0);
      expect(await db.get(`SELECT state FROM jobs WHERE kind = 'jobs.retention'`)).toEqual({
        state: 'pending',
      });
    });
  });
});
