import { FakeClock } from '@review-desk/server/clock';
import { requestRecordSchema, sendResultSchema, successEnvelopeSchema } from '@review-desk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeTwilio, startFakeTwilio } from '../../../test/support/fake-twilio.ts';
import {
  ENGINES,
  send as sendAs,
  startTestApi,
  type TestApi,
  uniqueEmail,
  uniquePhone,
  until,
} from './helpers.ts';
import { fakeTwilioConfig } from './support/twilio-config.ts';

// Sending hours (QUIET_HOURS, here 08:00–21:00 in UTC) with a fake clock: a text asked for at
// 23:00 is accepted and held, and goes out once at 08:00; a link is never held.

describe.each(ENGINES)('%s', (engine) => {
  const NIGHT = Date.parse('2030-01-15T23:00:00Z');
  const OPENING = Date.parse('2030-01-16T08:00:00Z');

  let fake: FakeTwilio;
  let api: TestApi;
  let key: string;
  const clock = new FakeClock(NIGHT);

  beforeAll(async () => {
    fake = await startFakeTwilio({ receiptDelayMs: 5 });
    api = await startTestApi(
      {
        devOutbox: false,
        monthlySendAllowance: 0,
        frequencyCapDays: 0,
        quietHours: { start: 8 * 60, end: 21 * 60 },
        businessTimeZone: 'UTC',
        smsProvider: 'twilio',
        twilio: fakeTwilioConfig(fake),
      },
      { engine, clock },
    );
    await api.business('shop', 'Corner Shop', null);
    key = await api.key('shop');
  });
  afterAll(async () => {
    await api.stop();
    await fake.close();
  });

  const send = (body: unknown) => sendAs(api, key, body);

  async function read(id: string) {
    const response = await fetch(`${api.url}/api/v1/requests/${id}`, { headers: { 'x-api-key': key } });
    return successEnvelopeSchema(requestRecordSchema).parse(await response.json()).data;
  }

  describe('sending hours', () => {
    it('a 23:00 text is held for 08:00, then sent exactly once; a link is never held', async () => {
      const phone = uniquePhone();
      const email = uniqueEmail();
      const held = await send({
        customerName: 'Ada',
        customerPhone: phone,
        customerEmail: email,
        channel: 'both',
      });
      expect(held.status).toBe(200);
      const result = successEnvelopeSchema(sendResultSchema).parse(held.body).data;
      expect(result).toMatchObject({ status: 'scheduled', scheduledFor: new Date(OPENING).toISOString() });
      const record = await read(result.requestId);
      expect(record).toMatchObject({ status: 'scheduled', scheduledFor: new Date(OPENING).toISOString() });
      expect(record.legs.map((l) => [l.channel, l.provider, l.state])).toEqual([
        ['sms', 'twilio', 'scheduled'],
        ['email', 'outbox', 'scheduled'],
      ]);

      const link = await send({ channel: 'link' });
      expect(successEnvelopeSchema(sendResultSchema).parse(link.body).data.status).toBe('sent');

      // One minute before the opening: still held.
      clock.set(OPENING - 60_000);
      // Whatever else is due runs (the jobs' retention); the held send is not due yet.
      await api.ctx.jobs.drain();
      expect(fake.count(phone)).toBe(0);
      expect((await read(result.requestId)).status).toBe('scheduled');

      clock.set(OPENING);
      await api.ctx.jobs.drain();
      expect(fake.count(phone)).toBe(1);
      await fake.settled();
      await until(async () => (await read(result.requestId)).legs[0]?.state === 'delivered');
      const sent = await read(result.requestId);
      expect(sent.status).toBe('sent');
      expect(sent.legs.map((l) => l.state)).toEqual(['delivered', 'sent']);
      expect(fake.messages.find((m) => m.to === phone)?.body).toContain('Ada');
      // Time moves on; the job is done and never runs again.
      clock.advance(3_600_000);
      await api.ctx.jobs.drain();
      expect(fake.count(phone)).toBe(1);
    });

    it('a customer who texts STOP while the request is held is not messaged', async () => {
      clock.set(NIGHT + 86_400_000);
      const phone = uniquePhone();
      // Texted before (so the STOP is for this business), then a held request.
      clock.set(OPENING + 86_400_000 + 3_600_000);
      expect((await send({ customerPhone: phone })).status).toBe(200);
      clock.set(NIGHT + 2 * 86_400_000);
      const held = successEnvelopeSchema(sendResultSchema).parse(
        (await send({ customerPhone: phone })).body,
      ).data;
      expect(held.status).toBe('scheduled');
      const stop = await fake.inbound(`${api.ctx.site.publicOrigin}/webhooks/twilio/inbound`, {
        from: phone,
        to: '+15005550006',
        body: 'STOP',
      });
      expect(stop.status).toBe(200);
      clock.set(OPENING + 2 * 86_400_000);
      await api.ctx.jobs.drain();
      const record = await read(held.requestId);
      expect(record.status).toBe('failed');
      expect(record.legs[0]).toMatchObject({ state: 'failed', error: expect.stringMatching(/opted out/) });
      expect(fake.count(phone)).toBe(1);
    });
    it('a held text whose sending was interrupted is recorded unknown, never sent again', async () => {
      clock.set(NIGHT + 3 * 86_400_000);
      const phone = uniquePhone();
      const held = successEnvelopeSchema(sendResultSchema).parse(
        (await send({ customerPhone: phone })).body,
      ).data;
      expect(held.status).toBe('scheduled');
      // What a process that died while handing it to Twilio leaves behind: the request `sending`.
      const delivery = await api.ctx.tracker.store();
      expect(await delivery.startSending(held.requestId, clock.now())).toBe(true);
      clock.set(OPENING + 3 * 86_400_000);
      await api.ctx.jobs.drain();
      const record = await read(held.requestId);
      expect(record.legs[0]).toMatchObject({
        state: 'unknown',
        error: expect.stringMatching(/may have been sent/),
      });
      expect(fake.count(phone)).toBe(0);
    });
  });
});
