import { randomBytes } from 'node:crypto';
import { FakeClock } from '@review-desk/server/clock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSquare, notify, paymentEvent, startFakeSquare } from '../../../test/support/fake-square.ts';
import {
  type Body,
  ENGINES,
  expectFailure,
  getJson,
  outboxFor,
  sendHeaders,
  startTestApi,
  type TestApi,
  uniqueEmail,
  uniquePhone,
  writeJson,
} from './helpers.ts';

// Square as the first point of sale (docs/settings.md, "Square"), against the stand-in for its
// side: the signature over the notification URL and the body (valid, forged, stale, one byte
// changed), a completed payment becoming a request after the business's delay with the payment's
// id as its externalId (a notification sent twice is one request), the contact read from the
// payment's customer, and the owners' switch that is off until turned on.

const START = Date.parse('2030-06-10T12:00:00Z');
const SIGNATURE_KEY = `sig_${randomBytes(16).toString('base64url')}`;

describe.each(ENGINES)('%s', (engine) => {
  const clock = new FakeClock(START);
  let api: TestApi;
  let square: FakeSquare;
  let key: string;
  let url: string;

  beforeAll(async () => {
    square = await startFakeSquare();
    api = await startTestApi(
      { square: { apiBase: square.url, timeoutMs: 300 }, frequencyCapDays: 0 },
      { engine, clock },
    );
    await api.business('salon', 'Salon');
    key = await api.key('salon');
  });
  afterAll(async () => {
    await api.stop();
    await square.close();
  });

  const put = (body: unknown) => writeJson(api, 'PUT', '/api/v1/integrations/square', key, body);
  // Square's events carry the time they happened: the service's (fake) now.
  const payment = (extra: Parameters<typeof paymentEvent>[0]) =>
    paymentEvent({ createdAt: new Date(clock.now()).toISOString(), ...extra });
  const read = async (id: string) => (await getJson(api, `/api/v1/requests/${id}`, key)).body.data;

  it('connects with a signature key; automatic sends are off until turned on; no secret is answered', async () => {
    expectFailure(await put({ automaticSends: true }), 'validation_failed');
    const connected = await put({ signatureKey: SIGNATURE_KEY });
    expect(connected.status).toBe(200);
    expect(connected.body.data).toMatchObject({ source: 'square', connected: true, automaticSends: false });
    url = connected.body.data.notificationUrl;
    expect(url).toMatch(new RegExp(`^${api.ctx.site.publicOrigin}/webhooks/square/sq_`));
    const listed = await getJson(api, '/api/v1/integrations', key);
    expect(JSON.stringify(listed.body)).not.toContain(SIGNATURE_KEY);
    const off = await notify(url, SIGNATURE_KEY, payment({ paymentId: 'pay_off', email: uniqueEmail() }));
    expect(off).toMatchObject({
      status: 200,
      json: { data: { acted: false, reason: 'automatic sends from Square are off' } },
    });
  });

  it('refuses a forged signature, a body changed by one byte, another URL and a stale notification', async () => {
    const event = payment({ paymentId: 'pay_forged', email: uniqueEmail() });
    const forged = await notify(url, 'not-the-key', event);
    expect(forged).toMatchObject({ status: 403, json: { code: 'square_signature_invalid' } });
    const changed = await notify(url, SIGNATURE_KEY, event, { body: (b) => b.replace('4200', '4201') });
    expect(changed.json.code).toBe('square_signature_invalid');
    const elsewhere = await notify(`${url}?x=1`, SIGNATURE_KEY, event, { postTo: url });
    expect(elsewhere.json.code).toBe('square_signature_invalid');
    const stale = payment({
      paymentId: 'pay_stale',
      email: uniqueEmail(),
      createdAt: new Date(START - 2 * 86_400_000).toISOString(),
    });
    expect((await notify(url, SIGNATURE_KEY, stale)).json.code).toBe('square_event_stale');
    const unknown = await notify(url.replace(/sq_[\w-]+$/, 'sq_nobodyhas0000000000'), SIGNATURE_KEY, event);
    expect(unknown.status).toBe(404);
  });

  it('a completed payment becomes one request after the delay, however often Square sends it', async () => {
    const phone = uniquePhone();
    square.customers.set('cust_1', {
      id: 'cust_1',
      given_name: 'Maya',
      family_name: 'Ross',
      phone_number: phone,
    });
    expect(
      (await put({ automaticSends: true, delayMinutes: 60, accessToken: square.accessToken })).body.data,
    ).toMatchObject({
      automaticSends: true,
      delayMinutes: 60,
      readsCustomers: true,
    });
    const event = payment({ paymentId: 'pay_1', customerId: 'cust_1' });
    const first = await notify(url, SIGNATURE_KEY, event);
    expect(first.json.data).toMatchObject({ acted: true, status: 'scheduled' });
    const requestId = first.json.data?.requestId as string;
    // Square sends it again (a retry), and sends the payment.created of the same payment.
    const again = await notify(url, SIGNATURE_KEY, event);
    const created = await notify(
      url,
      SIGNATURE_KEY,
      payment({ paymentId: 'pay_1', customerId: 'cust_1', type: 'payment.created' }),
    );
    expect([again.json.data?.requestId, created.json.data?.requestId]).toEqual([requestId, requestId]);
    expect(await read(requestId)).toMatchObject({
      status: 'scheduled',
      externalId: 'pay_1',
      automatic: { source: 'square', id: 'pay_1' },
    });
    clock.advance(60 * 60_000);
    await api.ctx.jobs.drain();
    const messages = await outboxFor(api, requestId);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ to: phone });
    expect(messages[0]?.body).toContain('Maya');
    expect((await getJson(api, '/api/v1/integrations', key)).body.data.integrations[0].requests).toBe(1);
    const listed = (await getJson(api, '/api/v1/requests', key)).body.data.requests.find(
      (r: Body) => r.id === requestId,
    );
    expect(listed.automatic).toEqual({ source: 'square', id: 'pay_1' });
  });

  it('uses the payment’s email without a customer, and skips what it cannot or should not send', async () => {
    await put({ delayMinutes: 0 });
    const email = uniqueEmail();
    const byEmail = await notify(url, SIGNATURE_KEY, payment({ paymentId: 'pay_2', email }));
    expect(byEmail.json.data).toMatchObject({ acted: true, status: 'sent' });
    expect((await outboxFor(api, byEmail.json.data?.requestId as string))[0]).toMatchObject({
      channel: 'email',
      to: email,
    });
    const approved = await notify(
      url,
      SIGNATURE_KEY,
      payment({ paymentId: 'pay_3', status: 'APPROVED', email }),
    );
    expect(approved.json.data).toMatchObject({ acted: false, reason: 'the payment is APPROVED' });
    const nobody = await notify(url, SIGNATURE_KEY, payment({ paymentId: 'pay_4' }));
    expect(nobody.json.data).toMatchObject({ acted: false });
  });

  it('answers 503 when Square cannot tell who the customer is, so that Square sends it again', async () => {
    square.customers.set('cust_down', 'fail');
    square.customers.set('cust_slow', 'hang');
    for (const customerId of ['cust_down', 'cust_slow']) {
      const reply = await notify(url, SIGNATURE_KEY, payment({ paymentId: `pay_${customerId}`, customerId }));
      expect(reply).toMatchObject({ status: 503, json: { code: 'integration_unavailable' } });
    }
    square.customers.set('cust_down', { id: 'cust_down', email_address: uniqueEmail() });
    const later = await notify(
      url,
      SIGNATURE_KEY,
      payment({ paymentId: 'pay_cust_down', customerId: 'cust_down' }),
    );
    expect(later.json.data).toMatchObject({ acted: true });
  });

  it('disconnects: its notifications are refused afterwards', async () => {
    const removed = await api.fetch('/api/v1/integrations/square', {
      method: 'DELETE',
      headers: sendHeaders(api, key),
    });
    expect(removed.status).toBe(200);
    const after = await notify(url, SIGNATURE_KEY, payment({ paymentId: 'pay_5', email: uniqueEmail() }));
    expect(after.json.code).toBe('integration_not_connected');
  });
});
