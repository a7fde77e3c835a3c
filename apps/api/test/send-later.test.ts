import { FakeClock } from '@review-desk/server/clock';
import {
  requestRecordSchema,
  SEND_LATER_MESSAGES,
  sendResultSchema,
  successEnvelopeSchema,
} from '@review-desk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Body,
  ENGINES,
  expectFailure,
  getJson,
  outboxFor,
  send,
  sendHeaders,
  startTestApi,
  type TestApi,
  uniqueEmail,
  uniquePhone,
  until,
} from './helpers.ts';

// Requests that send themselves later (docs/api.md, "Sending later"), on both engines with a fake
// clock the scheduled work waits on: a delay or a time, inside the sending hours (08:00–21:00
// UTC); one request per externalId whatever arrives twice; a held request read back and cancelled.

const START = Date.parse('2030-03-04T10:00:00Z');
const MINUTE = 60_000;

describe.each(ENGINES)('%s', (engine) => {
  const clock = new FakeClock(START);
  let api: TestApi;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    api = await startTestApi(
      {
        monthlySendAllowance: 100,
        frequencyCapDays: 30,
        quietHours: { start: 8 * 60, end: 21 * 60 },
        businessTimeZone: 'UTC',
      },
      { engine, clock },
    );
    await api.business('bakery', 'Bakery', null);
    await api.business('other', 'Other', null);
    key = await api.key('bakery');
    otherKey = await api.key('other');
  });
  afterAll(() => api.stop());

  const accepted = (result: { status: number; body: Body }) => {
    expect(result.status).toBe(200);
    return successEnvelopeSchema(sendResultSchema).parse(result.body).data;
  };
  const read = async (id: string, as = key) => {
    const result = await getJson(api, `/api/v1/requests/${id}`, as);
    return result.status === 200 ? successEnvelopeSchema(requestRecordSchema).parse(result.body).data : null;
  };
  const cancel = async (id: string, as = key) => {
    const response = await api.fetch(`/api/v1/requests/${id}`, {
      method: 'DELETE',
      headers: sendHeaders(api, as),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Body };
  };
  const messagesOf = async (id: string) => (await outboxFor(api, id)).length;

  it('a delay holds the request; it goes once at its time and reads back scheduled until then', async () => {
    const phone = uniquePhone();
    const before = clock.now();
    const result = accepted(
      await send(api, key, {
        customerName: 'Lea',
        customerPhone: phone,
        delayMinutes: 90,
        externalId: 'sale-1',
      }),
    );
    expect(result.status).toBe('scheduled');
    const at = Date.parse(result.scheduledFor ?? '');
    expect(at).toBeGreaterThanOrEqual(before + 90 * MINUTE);
    expect(at).toBeLessThanOrEqual(clock.now() + 90 * MINUTE);
    const held = await read(result.requestId);
    expect(held).toMatchObject({ status: 'scheduled', externalId: 'sale-1', automatic: null });
    expect(held?.legs.map((l) => l.state)).toEqual(['scheduled']);

    clock.advance(89 * MINUTE);
    expect(await messagesOf(result.requestId)).toBe(0);
    clock.advance(MINUTE);
    await until(async () => (await read(result.requestId))?.status === 'sent');
    expect(await messagesOf(result.requestId)).toBe(1);
    clock.advance(60 * MINUTE);
    await until(async () => (await read(result.requestId))?.legs[0]?.state === 'delivered');
    expect(await messagesOf(result.requestId)).toBe(1);
  });

  it('a time outside the sending hours waits for them to open', async () => {
    const day = new Date(clock.now()).toISOString().slice(0, 10);
    const result = accepted(
      await send(api, key, {
        customerEmail: uniqueEmail(),
        channel: 'email',
        sendAt: `${day}T22:30:00+00:00`,
      }),
    );
    const next = Date.parse(`${day}T08:00:00Z`) + 86_400_000;
    expect(result).toMatchObject({ status: 'scheduled', scheduledFor: new Date(next).toISOString() });
  });

  it('refuses a time too far ahead, a time and a delay together, and a link asked for later', async () => {
    const far = new Date(clock.now() + 31 * 86_400_000).toISOString();
    const tooFar = await send(api, key, { customerPhone: uniquePhone(), sendAt: far });
    expectFailure(tooFar, 'validation_failed');
    expect(tooFar.body.fields).toEqual({ sendAt: SEND_LATER_MESSAGES.tooFar });
    const both = await send(api, key, { customerPhone: uniquePhone(), sendAt: far, delayMinutes: 5 });
    expect(both.body.fields).toMatchObject({ delayMinutes: SEND_LATER_MESSAGES.both });
    const link = await send(api, key, { channel: 'link', delayMinutes: 5 });
    expect(link.body.fields).toMatchObject({ delayMinutes: SEND_LATER_MESSAGES.link });
    const badId = await send(api, key, { customerPhone: uniquePhone(), externalId: 'a\nb' });
    expect(Object.keys(badId.body.fields)).toEqual(['externalId']);
  });

  it('one externalId is one request: retries, also at once, name it and send nothing more', async () => {
    const body = { customerPhone: uniquePhone(), delayMinutes: 30, externalId: 'invoice-77' };
    const first = accepted(await send(api, key, body));
    // A point of sale that retries, several times at once, and once more with other details.
    const again = await Promise.all([
      ...Array.from({ length: 6 }, () => send(api, key, body)),
      send(api, key, { ...body, customerPhone: uniquePhone(), delayMinutes: 5 }),
    ]);
    for (const result of again.map(accepted))
      expect(result).toMatchObject({ requestId: first.requestId, status: 'scheduled', existing: true });
    // The same id at another business is that business's own.
    const elsewhere = accepted(await send(api, otherKey, body));
    expect(elsewhere.requestId).not.toBe(first.requestId);
    expect(elsewhere.existing).toBeUndefined();

    clock.advance(30 * MINUTE);
    await until(async () => (await read(first.requestId))?.status === 'sent');
    const after = accepted(await send(api, key, body));
    expect(after).toMatchObject({ requestId: first.requestId, status: 'sent', existing: true });
    expect(after.reviewLink).toBe(first.reviewLink);
    expect(await messagesOf(first.requestId)).toBe(1);
  });

  it('a held request can be cancelled and then never leaves; later it cannot be', async () => {
    const phone = uniquePhone();
    const held = accepted(
      await send(api, key, { customerPhone: phone, delayMinutes: 15, externalId: 'visit-9' }),
    );
    expectFailure(await cancel(held.requestId, otherKey), 'not_found');
    const cancelled = await cancel(held.requestId);
    expect(cancelled.status).toBe(200);
    expect(successEnvelopeSchema(requestRecordSchema).parse(cancelled.body).data).toMatchObject({
      status: 'cancelled',
      legs: [{ state: 'failed', error: 'Cancelled before its time: not sent.' }],
    });
    expectFailure(await cancel(held.requestId), 'request_not_held');
    // The sale's retry names the cancelled request; the contact is free for a new one.
    expect(accepted(await send(api, key, { customerPhone: phone, externalId: 'visit-9' }))).toMatchObject({
      requestId: held.requestId,
      status: 'cancelled',
      existing: true,
    });
    clock.advance(60 * MINUTE);
    const now = accepted(await send(api, key, { customerPhone: phone }));
    expect(now.status).toBe('sent');
    await until(async () => (await read(now.requestId))?.legs[0]?.state === 'delivered');
    expect(await messagesOf(held.requestId)).toBe(0);
    expect((await read(held.requestId))?.status).toBe('cancelled');
    const listed = await getJson(api, '/api/v1/requests?status=cancelled', key);
    expect(listed.body.data.requests.map((r: Body) => r.id)).toContain(held.requestId);
    expectFailure(await cancel(now.requestId), 'request_not_held');
    expectFailure(await cancel('req_nothing'), 'not_found');
  });
});
