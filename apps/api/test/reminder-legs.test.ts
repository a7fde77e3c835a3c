import { FakeClock } from '@review-desk/server/clock';
import {
  requestListSchema,
  requestRecordSchema,
  sendResultSchema,
  successEnvelopeSchema,
} from '@review-desk/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { getJson, send as sendAs, uniqueEmail, uniquePhone, until, useTestApi } from './helpers.ts';

// The reminder's own legs in the request's delivery record (GET /api/v1/requests and
// /api/v1/requests/{id}): beside the send's legs, with kind `reminder`, their own state and
// carrier receipts; the request's status stays the send's.

const DAY = 86_400_000;
const START = Date.parse('2030-05-06T10:00:00Z');
const clock = new FakeClock(START);

const api = useTestApi(
  {
    monthlySendAllowance: 0,
    frequencyCapDays: 0,
    quietHours: null,
    businessTimeZone: 'UTC',
    reminderAfterDays: 1,
  },
  { clock },
);
let key: string;

beforeAll(async () => {
  await api.business('florist', 'Petal Lane', null);
  key = await api.key('florist');
});

async function send(body: Record<string, unknown>): Promise<string> {
  const result = await sendAs(api, key, body);
  expect(result.status).toBe(200);
  return successEnvelopeSchema(sendResultSchema).parse(result.body).data.requestId;
}

async function record(requestId: string) {
  const result = await getJson(api, `/api/v1/requests/${requestId}`, key);
  expect(result.status).toBe(200);
  return successEnvelopeSchema(requestRecordSchema).parse(result.body).data;
}

const kinds = (legs: { channel: string; kind?: string | undefined }[]) =>
  legs.map((leg) => `${leg.kind}:${leg.channel}`);

describe('the reminder in the request’s delivery legs', () => {
  it('adds its own legs, kind reminder, after the send’s; the request stays as the send made it', async () => {
    const both = await send({
      customerName: 'Ines',
      customerPhone: uniquePhone(),
      customerEmail: uniqueEmail(),
      channel: 'both',
    });
    // The outbox's made-up receipts (a moment later) settle the send's legs first.
    await until(async () => (await record(both)).legs.every((leg) => leg.state === 'delivered'));
    const before = await record(both);
    expect(kinds(before.legs)).toEqual(['request:sms', 'request:email']);

    clock.set(START + DAY);
    await until(async () => (await record(both)).legs.length === 4);
    const after = await record(both);
    expect(kinds(after.legs)).toEqual(['request:sms', 'request:email', 'reminder:sms', 'reminder:email']);
    expect(after.status).toBe(before.status);
    // The send's legs are untouched by the reminder's.
    expect(after.legs.slice(0, 2).map((l) => l.updatedAt)).toEqual(before.legs.map((l) => l.updatedAt));
    for (const leg of after.legs.slice(2)) expect(['sent', 'delivered']).toContain(leg.state);

    // The outbox's made-up receipt names the reminder's message: its own leg moves to delivered.
    await until(async () => (await record(both)).legs[2]?.state === 'delivered');
  });

  it('shows the reminder’s legs in the list too; a link gets no reminder and has no legs', async () => {
    const sms = await send({ customerPhone: uniquePhone() });
    const link = await send({ channel: 'link' });
    clock.advance(DAY);
    await until(async () => (await record(sms)).legs.length === 2);
    const result = await getJson(api, '/api/v1/requests?limit=10', key);
    const list = successEnvelopeSchema(requestListSchema).parse(result.body).data;
    const byId = new Map(list.requests.map((r) => [r.id, r]));
    expect(kinds(byId.get(sms)!.legs)).toEqual(['request:sms', 'reminder:sms']);
    expect(byId.get(link)!.legs).toEqual([]);
  });
});
