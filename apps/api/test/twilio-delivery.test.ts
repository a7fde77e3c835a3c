import {
  requestListSchema,
  requestRecordSchema,
  sendResultSchema,
  successEnvelopeSchema,
} from '@review-desk/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeTwilio, startFakeTwilio } from '../../../test/support/fake-twilio.ts';
import { expectFailure, getJson, send, startTestApi, type TestApi, uniquePhone } from './helpers.ts';
import { fakeTwilioConfig } from './support/twilio-config.ts';

// SMS_PROVIDER=twilio against the stand-in Twilio (a real HTTP server speaking the Messages API and
// signing its receipts): sends, receipts through the signed status webhook, Twilio's refusals in
// the user's words, STOP and START, and a Twilio that never answers.

const FROM = '+15005550006';
let fake: FakeTwilio;
let api: TestApi;
let key: string;

beforeAll(async () => {
  fake = await startFakeTwilio({ receiptDelayMs: 5 });
  api = await startTestApi({
    devOutbox: false,
    monthlySendAllowance: 0,
    frequencyCapDays: 0,
    smsProvider: 'twilio',
    twilio: fakeTwilioConfig(fake, { from: FROM, timeoutMs: 400 }),
  });
  await api.business('shop', 'Corner Shop');
  await api.business('other', 'Other Shop');
  key = await api.key('shop');
});
afterAll(async () => {
  await api.stop();
  await fake.close();
});
beforeEach(() => fake.reset());

const statusUrl = () => `${api.ctx.site.publicOrigin}/webhooks/twilio/status`;
const inboundUrl = () => `${api.ctx.site.publicOrigin}/webhooks/twilio/inbound`;

async function readRequest(id: string, withKey = key) {
  const result = await getJson(api, `/api/v1/requests/${id}`, withKey);
  expect(result.status).toBe(200);
  return successEnvelopeSchema(requestRecordSchema).parse(result.body).data;
}

async function smsLeg(id: string) {
  const record = await readRequest(id);
  return record.legs.find((l) => l.channel === 'sms');
}

async function sendSms(phone: string, name = 'Ada') {
  const result = await send(api, key, { customerName: name, customerPhone: phone });
  return result;
}

describe('a text through Twilio', () => {
  it('send → 201 from Twilio → sent → delivered, seen in GET /api/v1/requests/{id}', async () => {
    const phone = uniquePhone();
    const result = await sendSms(phone);
    expect(result.status).toBe(200);
    const data = successEnvelopeSchema(sendResultSchema).parse(result.body).data;
    expect(data.status).toBe('sent');
    expect(fake.messages).toHaveLength(1);
    expect(fake.messages[0]).toMatchObject({
      to: phone,
      from: FROM,
      statusCallback: statusUrl(),
      authUser: fake.accountSid,
    });
    expect(fake.messages[0]!.body).toContain(data.reviewLink);
    // Twilio answered `queued`: handed to the carrier, not yet out.
    expect((await smsLeg(data.requestId))?.state).toMatch(/queued|sent|delivered/);
    await fake.settled();
    expect(fake.callbacks.map((c) => [c.params.MessageStatus, c.status])).toEqual([
      ['sent', 204],
      ['delivered', 204],
    ]);
    const record = await readRequest(data.requestId);
    expect(record).toMatchObject({ id: data.requestId, channel: 'sms', status: 'sent', scheduledFor: null });
    expect(record.legs).toEqual([
      {
        channel: 'sms',
        kind: 'request',
        provider: 'twilio',
        state: 'delivered',
        error: null,
        updatedAt: expect.any(String),
      },
    ]);
  });

  it('an undelivered receipt carries the carrier’s reason in words', async () => {
    const phone = uniquePhone();
    fake.on(phone, { kind: 'accept', receipts: ['sent', 'undelivered'], errorCode: 30003 });
    const data = (await sendSms(phone)).body.data;
    await fake.settled();
    const leg = await smsLeg(data.requestId);
    expect(leg).toMatchObject({ state: 'undelivered' });
    expect(leg?.error).toMatch(/switched off or out of reach.*30003/);
  });

  it('GET /api/v1/requests lists newest first, filtered and paged, for the key’s business only', async () => {
    const first = (await sendSms(uniquePhone())).body.data.requestId as string;
    const second = (await sendSms(uniquePhone())).body.data.requestId as string;
    const link = (await send(api, key, { channel: 'link' })).body.data.requestId as string;
    const all = await getJson(api, '/api/v1/requests?limit=3', key);
    expect(all.status).toBe(200);
    const list = successEnvelopeSchema(requestListSchema).parse(all.body).data;
    expect(list.requests.map((r) => r.id)).toEqual([link, second, first]);
    expect(list).toMatchObject({ page: 1, limit: 3 });
    expect(list.total).toBeGreaterThanOrEqual(3);
    const links = successEnvelopeSchema(requestListSchema).parse(
      (await getJson(api, '/api/v1/requests?channel=link', key)).body,
    ).data;
    expect(links.requests.every((r) => r.channel === 'link' && r.legs.length === 0)).toBe(true);
    const page2 = successEnvelopeSchema(requestListSchema).parse(
      (await getJson(api, '/api/v1/requests?limit=1&page=2', key)).body,
    ).data;
    expect(page2.requests.map((r) => r.id)).toEqual([second]);
    expectFailure(await getJson(api, '/api/v1/requests?status=lost', key), 'validation_failed');
    // Another business's key sees none of them.
    const otherKey = await api.key('other');
    expectFailure(await getJson(api, `/api/v1/requests/${first}`, otherKey), 'not_found');
    const theirs = successEnvelopeSchema(requestListSchema).parse(
      (await getJson(api, '/api/v1/requests', otherKey)).body,
    ).data;
    expect(theirs.requests.map((r) => r.id)).not.toContain(first);
    // A key without a requests scope may not read them.
    expectFailure(
      await getJson(api, '/api/v1/requests', await api.key('shop', ['reviews:read'])),
      'scope_missing',
    );
    expect(
      (await getJson(api, '/api/v1/requests', await api.key('shop', ['review_requests:read']))).status,
    ).toBe(200);
  });
});

it('the OpenAPI document describes the reads and the two webhooks as extensions', async () => {
  const doc = (await getJson(api, '/api/v1/openapi.json')).body;
  for (const path of ['/api/v1/requests', '/api/v1/requests/{id}'])
    expect(doc.paths[path].get['x-extension']).toBe(true);
  for (const path of ['/webhooks/twilio/status', '/webhooks/twilio/inbound'])
    expect(doc.paths[path].post.security).toEqual([]);
  expect(doc.components.schemas.RequestRecord.properties.legs).toBeDefined();
  expect(doc.paths['/api/v1/requests'].get.description).toContain('Not delivered');
});

describe('Twilio’s refusals, in words the user can act on', () => {
  it.each([21211, 21614])('error %i: a 400 naming customerPhone, nothing counted', async (code) => {
    const phone = uniquePhone();
    fake.on(phone, { kind: 'error', code });
    const result = await sendSms(phone);
    const message = expectFailure(result, 'validation_failed');
    expect(result.body.fields).toHaveProperty('customerPhone');
    expect(message).toMatch(new RegExp(`${code}`));
    expect(fake.count(phone)).toBe(1);
  });

  it('error 21610: the customer is opted out, this send and the next refused as such', async () => {
    const phone = uniquePhone();
    fake.on(phone, { kind: 'error', code: 21610 });
    expectFailure(await sendSms(phone), 'opted_out');
    fake.on(phone, null);
    expectFailure(await sendSms(phone), 'opted_out');
    expect(fake.count(phone)).toBe(1);
  });

  it.each([
    [21408, /Geo permissions/],
    [21606, /TWILIO_FROM/],
    [20003, /TWILIO_ACCOUNT_SID/],
    [20005, /not active/],
    [20429, /limiting/],
    [20500, /HTTP 500.*not sent/],
    [20503, /HTTP 503.*not sent/],
  ])('error %i: the leg fails with a message an operator can act on, never retried', async (code, words) => {
    const phone = uniquePhone();
    fake.on(phone, { kind: 'error', code });
    const result = await sendSms(phone);
    const message = expectFailure(result, 'delivery_failed');
    expect(message).toMatch(words);
    // A retry could only be scheduled work: run whatever is due, and still one call.
    await api.ctx.jobs.drain();
    expect(fake.count(phone)).toBe(1);
  });
});

describe('the status webhook', () => {
  it('refuses an unsigned, forged or misaddressed callback with 403 and records nothing', async () => {
    const phone = uniquePhone();
    fake.on(phone, { kind: 'accept', receipts: [] });
    const id = (await sendSms(phone)).body.data.requestId as string;
    const sid = fake.messages[0]!.sid;
    const params = { MessageSid: sid, SmsSid: sid, MessageStatus: 'undelivered', ErrorCode: '30007' };
    const refused = [
      await fake.post(statusUrl(), params, { signature: null }),
      await fake.post(statusUrl(), params, { signature: 'bm90IGEgc2lnbmF0dXJl' }),
      // Signed for another address: the signature covers the URL Twilio called.
      await fake.post(statusUrl(), params, {
        signature: fake.sign('https://elsewhere.example/webhooks/twilio/status', params),
      }),
      // Signed, then one parameter changed on the way.
      await fake.post(
        statusUrl(),
        { ...params, ErrorCode: '30003' },
        { signature: fake.sign(statusUrl(), params) },
      ),
    ];
    for (const answer of refused) {
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.body)).toMatchObject({ success: false, code: 'webhook_signature_invalid' });
    }
    expect((await smsLeg(id))?.state).toBe('queued');
  });

  it('is order-tolerant and idempotent: a late or replayed receipt changes nothing', async () => {
    const phone = uniquePhone();
    fake.on(phone, { kind: 'accept', receipts: [] });
    const id = (await sendSms(phone)).body.data.requestId as string;
    const sid = fake.messages[0]!.sid;
    const receipt = (status: string) => ({
      MessageSid: sid,
      SmsSid: sid,
      MessageStatus: status,
      AccountSid: fake.accountSid,
    });
    expect((await fake.post(statusUrl(), receipt('delivered'))).status).toBe(204);
    const delivered = await smsLeg(id);
    expect(delivered?.state).toBe('delivered');
    expect((await fake.post(statusUrl(), receipt('sent'))).status).toBe(204);
    expect((await fake.post(statusUrl(), receipt('delivered'))).status).toBe(204);
    expect((await fake.post(statusUrl(), receipt('undelivered'))).status).toBe(204);
    expect(await smsLeg(id)).toEqual(delivered);
  });

  it('acknowledges a receipt for a message it does not know (Twilio would retry an error)', async () => {
    const sid = `SM${'a'.repeat(32)}`;
    const answer = await fake.post(statusUrl(), { MessageSid: sid, MessageStatus: 'delivered' });
    expect(answer.status).toBe(204);
    const nonsense = await fake.post(statusUrl(), { MessageSid: 'not-a-sid', MessageStatus: 'whatever' });
    expect(nonsense.status).toBe(204);
  });
});

describe('STOP and START', () => {
  it('STOP opts the phone out of the number, for every business sending from it; START opts it back in', async () => {
    const phone = uniquePhone();
    expect((await sendSms(phone)).status).toBe(200);
    const stop = await fake.inbound(inboundUrl(), { from: phone, to: FROM, body: '  stop ' });
    expect(stop.status).toBe(200);
    expect(stop.body).toContain('<Response>');
    const refused = await sendSms(phone);
    expectFailure(refused, 'opted_out');
    // Another business sends from the same number: the customer said STOP to it too.
    expectFailure(await send(api, await api.key('other'), { customerPhone: phone }), 'opted_out');
    expect(fake.count(phone)).toBe(1);
    expect((await fake.inbound(inboundUrl(), { from: phone, to: FROM, body: 'START' })).status).toBe(200);
    expect((await sendSms(phone)).status).toBe(200);
    expect((await send(api, await api.key('other'), { customerPhone: phone })).status).toBe(200);
    expect(fake.count(phone)).toBe(3);
  });

  it('a STOP from a phone no business has texted yet is honoured for every business, now and later', async () => {
    const phone = uniquePhone();
    expect((await fake.inbound(inboundUrl(), { from: phone, to: FROM, body: 'STOP' })).status).toBe(200);
    for (const business of ['shop', 'other'])
      expectFailure(await send(api, await api.key(business), { customerPhone: phone }), 'opted_out');
    await api.business('later', 'Later Shop');
    expectFailure(await send(api, await api.key('later'), { customerPhone: phone }), 'opted_out');
    expect(fake.count(phone)).toBe(0);
  });

  it('applies each STOP and START once: a START replayed, or older and late, never undoes a newer STOP', async () => {
    const phone = uniquePhone();
    expect((await sendSms(phone)).status).toBe(200);
    const t = Date.now();
    await fake.inbound(inboundUrl(), { from: phone, to: FROM, body: 'STOP', at: t });
    const start = await fake.inbound(inboundUrl(), { from: phone, to: FROM, body: 'START', at: t + 2_000 });
    await fake.inbound(inboundUrl(), { from: phone, to: FROM, body: 'STOP', at: t + 4_000 });
    expectFailure(await sendSms(phone), 'opted_out');
    // The earlier START, byte for byte, validly signed: acknowledged, and nothing changes.
    const replayed = await fake.post(inboundUrl(), start.params);
    expect(replayed.status).toBe(200);
    expectFailure(await sendSms(phone), 'opted_out');
    // A START Twilio received before the last STOP, delivered late: nothing changes either.
    await fake.inbound(inboundUrl(), { from: phone, to: FROM, body: 'START', at: t + 3_000 });
    expectFailure(await sendSms(phone), 'opted_out');
    // A START Twilio cannot read back (so cannot date) is not applied: 503, for Twilio to retry.
    const unknownSid = `SM${'e'.repeat(32)}`;
    const unconfirmed = await fake.post(inboundUrl(), {
      ...start.params,
      MessageSid: unknownSid,
      SmsSid: unknownSid,
      SmsMessageSid: unknownSid,
    });
    expect(unconfirmed.status).toBe(503);
    expect(JSON.parse(unconfirmed.body)).toMatchObject({ success: false, code: 'unavailable' });
    expectFailure(await sendSms(phone), 'opted_out');
    // A newer START opts the phone in again.
    await fake.inbound(inboundUrl(), { from: phone, to: FROM, body: 'START', at: t + 6_000 });
    expect((await sendSms(phone)).status).toBe(200);
    expect(fake.count(phone)).toBe(2);
  });

  it.each(['STOPALL', 'unsubscribe', 'Cancel', 'END', 'quit'])('%s is an opt-out', async (word) => {
    const phone = uniquePhone();
    await sendSms(phone);
    await fake.inbound(inboundUrl(), { from: phone, to: FROM, body: word });
    expectFailure(await sendSms(phone), 'opted_out');
  });

  it('ordinary replies change nothing; an unsigned STOP is refused', async () => {
    const phone = uniquePhone();
    await sendSms(phone);
    await fake.inbound(inboundUrl(), { from: phone, to: FROM, body: 'stop by tomorrow?' });
    const unsigned = await fake.post(
      inboundUrl(),
      { From: phone, To: FROM, Body: 'STOP' },
      { signature: null },
    );
    expect(unsigned.status).toBe(403);
    expect((await sendSms(phone)).status).toBe(200);
  });
});

describe('a Twilio that does not answer', () => {
  it('a timeout after the request left: the leg is unknown and Twilio is called exactly once', async () => {
    const phone = uniquePhone();
    fake.on(phone, { kind: 'hang' });
    const result = await sendSms(phone);
    expect(result.status).toBe(200);
    const data = successEnvelopeSchema(sendResultSchema).parse(result.body).data;
    expect(data.status).toBe('unknown');
    expect(data.warning).toMatch(/may have been sent/);
    const record = await readRequest(data.requestId);
    expect(record.status).toBe('unknown');
    expect(record.legs[0]).toMatchObject({
      state: 'unknown',
      error: expect.stringMatching(/not sent again/),
    });
    // A resend could only be scheduled work: run whatever is due, and still one call.
    await api.ctx.jobs.drain();
    expect(fake.count(phone)).toBe(1);
  });

  it('a connection reset after the request left is unknown too', async () => {
    const phone = uniquePhone();
    fake.on(phone, { kind: 'reset' });
    const data = (await sendSms(phone)).body.data;
    expect(data.status).toBe('unknown');
    expect(fake.count(phone)).toBe(1);
  });

  it('the status webhook is not served without Twilio’s settings', async () => {
    const plain = await startTestApi();
    try {
      const answer = await fetch(`${plain.url}/webhooks/twilio/status`, { method: 'POST' });
      expect(answer.status).toBe(404);
    } finally {
      await plain.stop();
    }
  });
});
