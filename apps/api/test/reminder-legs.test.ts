import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FakeClock } from '@review-desk/server/db/clock';
import {
  requestListSchema,
  requestRecordSchema,
  SCOPES,
  sendResultSchema,
  successEnvelopeSchema,
} from '@review-desk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBusiness } from '../src/domain/businesses.ts';
import { createApiKey } from '../src/domain/keys.ts';
import { testConfig } from '../src/env.ts';
import { type RunningApi, startApi } from '../src/server.ts';
import { uniqueEmail, uniquePhone } from './helpers.ts';

// The reminder's own legs in the request's delivery record (GET /api/v1/requests and
// /api/v1/requests/{id}): beside the send's legs, with kind `reminder`, their own state and
// carrier receipts; the request's status stays the send's.

const DAY = 86_400_000;
const START = Date.parse('2030-05-06T10:00:00Z');

let api: RunningApi;
let dir: string;
let key: string;
const clock = new FakeClock(START);

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'rd-reminder-legs-'));
  api = await startApi(
    testConfig({
      databasePath: path.join(dir, 'api.db'),
      devOutbox: true,
      monthlySendAllowance: 0,
      frequencyCapDays: 0,
      quietHours: null,
      businessTimeZone: 'UTC',
      reminderAfterDays: 1,
    }),
    { clock },
  );
  await createBusiness(api.ctx.store, { slug: 'florist', name: 'Petal Lane', reviewUrl: null }, clock.now());
  key = (
    await createApiKey(api.ctx.store, { businessSlug: 'florist', scopes: [...SCOPES], now: clock.now() })
  ).key;
});
afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

const headers = () => ({
  'x-api-key': key,
  'content-type': 'application/json',
  origin: api.ctx.site.publicOrigin,
});

async function send(body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${api.url}/api/v1/requests/send`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return successEnvelopeSchema(sendResultSchema).parse(await response.json()).data.requestId;
}

async function record(requestId: string) {
  const response = await fetch(`${api.url}/api/v1/requests/${requestId}`, { headers: headers() });
  expect(response.status).toBe(200);
  return successEnvelopeSchema(requestRecordSchema).parse(await response.json()).data;
}

async function until(check: () => Promise<boolean>, ms = 5_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
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
    const response = await fetch(`${api.url}/api/v1/requests?limit=10`, { headers: headers() });
    const list = successEnvelopeSchema(requestListSchema).parse(await response.json()).data;
    const byId = new Map(list.requests.map((r) => [r.id, r]));
    expect(kinds(byId.get(sms)!.legs)).toEqual(['request:sms', 'reminder:sms']);
    expect(byId.get(link)!.legs).toEqual([]);
  });
});
