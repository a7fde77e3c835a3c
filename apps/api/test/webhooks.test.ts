import { FakeClock } from '@review-desk/server/clock';
import {
  requestRecordSchema,
  WEBHOOK_ATTEMPTS_MAX,
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_RETRY_DELAYS_MS,
} from '@review-desk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../../../test/support/http.ts';
import { requestReviewLink, submitReviewForm } from '../../../test/support/review-page.ts';
import {
  RECEIVER_CA,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../test/support/webhook-receiver.ts';
import { importReviews } from '../src/demo/import.ts';
import {
  type Body,
  ENGINES,
  expectFailure,
  getJson,
  sendHeaders,
  startTestApi,
  type TestApi,
  uniqueEmail,
  uniquePhone,
  until,
  writeJson,
} from './helpers.ts';

// Events out (docs/api.md, "Webhooks") on both engines, to a stand-in receiver over HTTPS: each
// event type signed and verified with the `standardwebhooks` package, carrying the resource as
// the API returns it; retries with the same webhook-id; rotation; the pause after three days of
// failures; the log and "send again"; the bounds.

const START = Date.parse('2030-05-06T12:00:00Z');

describe.each(ENGINES)('%s', (engine) => {
  const clock = new FakeClock(START);
  let api: TestApi;
  let receiver: WebhookReceiver;
  let key: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    api = await startTestApi(
      { webhooks: { allowPrivate: true }, frequencyCapDays: 0, monthlySendAllowance: 0 },
      { engine, clock, webhookCa: RECEIVER_CA },
    );
    await api.business('cafe', 'Cafe', 'https://reviews.example.com/cafe');
    key = await api.key('cafe');
  });
  afterAll(async () => {
    await api.stop();
    await receiver.close();
  });

  const create = (body: unknown) => writeJson(api, 'POST', '/api/v1/webhooks', key, body);
  const post = (path: string) => writeJson(api, 'POST', path, key, {});
  const drain = () => api.ctx.dispatcher.current!.drain();
  const log = async (id: string) => (await getJson(api, `/api/v1/webhooks/${id}/deliveries`, key)).body.data;
  const events = (path: string) => receiver.at(path).map((r) => JSON.parse(r.body) as Body);

  async function endpoint(path: string, types: readonly string[] = WEBHOOK_EVENT_TYPES) {
    const made = await create({ url: receiver.url(path), events: types });
    expect(made.status).toBe(201);
    return made.body.data as { id: string; secret: string };
  }

  it('delivers each event type signed, verified by the package, with the resource as the API reads it', async () => {
    const { id, secret } = await endpoint('/all');
    expect(secret).toMatch(/^whsec_/);
    const phone = uniquePhone();
    const { sent, token } = await requestReviewLink(api.url, key, {
      customerName: 'Ana',
      customerPhone: phone,
    });
    const requestId = sent.json.data.requestId as string;
    await drain();
    // The outbox's receipt comes a second later: delivered.
    await until(
      async () =>
        (await getJson(api, `/api/v1/requests/${requestId}`, key)).body.data.legs[0].state === 'delivered',
    );
    expect((await submitReviewForm(api.url, token, { rating: '5', comment: 'Lovely' })).status).toBe(303);
    const page = await request(api.url, `/r/${token}`);
    const cookie = String(page.headers['set-cookie']?.[0]?.split(';')[0]);
    const formToken = /name="form_token" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    await request(api.url, `/r/${token}/opt-out`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ form_token: formToken }).toString(),
    });
    // A send refused by the opt-out reports nothing: its transaction wrote nothing.
    expectFailure(
      await writeJson(api, 'POST', '/api/v1/requests/send', key, { customerPhone: phone }),
      'opted_out',
    );
    // Nothing went out: every delivery failed (the outbox refuses a phone ending 0000).
    await writeJson(api, 'POST', '/api/v1/requests/send', key, { customerPhone: '+14155550000' });
    // A synced review imported, then imported again once the business had answered it on the
    // platform: updated, its event carrying it as the list now shows it.
    const synced = { rating: 2, platform: 'google', review_date: '2030-05-01', external_id: 'g-updated' };
    expect(await importReviews(api.ctx.store, 'cafe', [synced], clock.now())).toMatchObject({ imported: 1 });
    const answered = { ...synced, rating: 3, response_status: 'responded', response_text: 'Sorry, fixed.' };
    expect(await importReviews(api.ctx.store, 'cafe', [answered], clock.now())).toMatchObject({ updated: 1 });
    await drain();

    const types = events('/all').map((e) => e.type);
    expect(new Set(types)).toEqual(new Set(WEBHOOK_EVENT_TYPES));
    expect(types.filter((t) => t === 'review.updated')).toHaveLength(1);
    for (const message of receiver.at('/all')) {
      const verified = receiver.verify(message, secret) as Body;
      expect(verified.id).toBe(message.id);
      expect(Date.parse(verified.timestamp)).toBeGreaterThanOrEqual(START);
    }
    const byType = Object.fromEntries(events('/all').map((e) => [e.type, e.data]));
    expect(requestRecordSchema.parse(byType['request.sent'])).toMatchObject({
      id: requestId,
      status: 'sent',
    });
    expect(byType['request.delivered']).toMatchObject({ id: requestId, legs: [{ state: 'delivered' }] });
    expect(byType['review.created']).toMatchObject({
      rating: 5,
      text: 'Lovely',
      platform: 'direct',
      author_name: 'Ana',
    });
    const reviews = await getJson(api, '/api/v1/reviews', key);
    expect(byType['review.created']).toEqual(reviews.body.data.reviews[0]);
    expect(byType['review.updated']).toMatchObject({
      rating: 3,
      response_status: 'responded',
      response_text: 'Sorry, fixed.',
    });
    const updated = (await getJson(api, '/api/v1/reviews?status=responded', key)).body.data.reviews;
    expect(byType['review.updated']).toEqual(updated.find((r: Body) => r.id === byType['review.updated'].id));
    expect(byType['request.completed']).toMatchObject({ id: requestId, completed: true });
    expect(byType['contact.opted_out']).toEqual({ phone, email: null, source: 'review_page', requestId });
    expect(byType['request.failed']).toMatchObject({ status: 'failed', legs: [{ state: 'failed' }] });
    expect((await log(id)).deliveries.every((d: Body) => d.state === 'delivered' && d.attempts === 1)).toBe(
      true,
    );
  });

  it('sends only the types an endpoint subscribes to', async () => {
    await endpoint('/some', ['request.failed']);
    await writeJson(api, 'POST', '/api/v1/requests/send', key, {
      customerEmail: uniqueEmail(),
      channel: 'email',
    });
    await writeJson(api, 'POST', '/api/v1/requests/send', key, { customerPhone: '+14155550000' });
    await drain();
    expect(events('/some').map((e) => e.type)).toEqual(['request.failed']);
  });

  it('retries a failed delivery with the same webhook-id until it is answered 2xx', async () => {
    receiver.behave('/flaky', { statuses: [500] });
    const { id, secret } = await endpoint('/flaky', ['request.sent']);
    await writeJson(api, 'POST', '/api/v1/requests/send', key, { customerPhone: uniquePhone() });
    await drain();
    expect(receiver.at('/flaky')).toHaveLength(1);
    expect((await log(id)).deliveries[0]).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 500 });
    clock.advance(WEBHOOK_RETRY_DELAYS_MS[0] * 1.2);
    await drain();
    const [first, second] = receiver.at('/flaky');
    expect(second?.id).toBe(first?.id);
    expect(second?.body).toBe(first?.body);
    receiver.verify(second!, secret);
    expect((await log(id)).deliveries[0]).toMatchObject({ state: 'delivered', attempts: 2, lastStatus: 200 });
    // "Send again": the same event once more, now.
    const deliveryId = (await log(id)).deliveries[0].id;
    expect((await post(`/api/v1/webhooks/${id}/deliveries/${deliveryId}/resend`)).status).toBe(200);
    await drain();
    expect(receiver.at('/flaky').map((r) => r.id)).toEqual([first?.id, first?.id, first?.id]);
  });

  it('signs with the old secret beside the new one for 24 hours after a rotation', async () => {
    const { id, secret: old } = await endpoint('/rotated', ['request.sent']);
    const rotated = await post(`/api/v1/webhooks/${id}/rotate`);
    const fresh = rotated.body.data.secret as string;
    expect(fresh).not.toBe(old);
    const until24h = Date.parse(rotated.body.data.previousSecretUntil) - clock.now();
    expect(Math.abs(until24h - 86_400_000)).toBeLessThan(5_000);
    await writeJson(api, 'POST', '/api/v1/requests/send', key, { customerPhone: uniquePhone() });
    await drain();
    const during = receiver.at('/rotated')[0]!;
    expect(during.signature.split(' ')).toHaveLength(2);
    receiver.verify(during, old);
    receiver.verify(during, fresh);
    clock.advance(86_400_000 + 1_000);
    await writeJson(api, 'POST', '/api/v1/requests/send', key, { customerPhone: uniquePhone() });
    await drain();
    const after = receiver.at('/rotated')[1]!;
    receiver.verify(after, fresh);
    expect(() => receiver.verify(after, old)).toThrow();
  });

  it('pauses an endpoint whose every attempt failed for three days, and resumes it', async () => {
    receiver.behave('/down', { statuses: Array(WEBHOOK_ATTEMPTS_MAX).fill(503) });
    const { id } = await endpoint('/down', ['request.sent']);
    await writeJson(api, 'POST', '/api/v1/requests/send', key, { customerPhone: uniquePhone() });
    await drain();
    for (const wait of WEBHOOK_RETRY_DELAYS_MS) {
      clock.advance(wait * 1.2);
      await drain();
    }
    const attempts = receiver.at('/down');
    expect(attempts).toHaveLength(WEBHOOK_ATTEMPTS_MAX);
    expect(new Set(attempts.map((a) => a.id)).size).toBe(1);
    const listed = (await getJson(api, '/api/v1/webhooks', key)).body.data.webhooks.find(
      (w: Body) => w.id === id,
    );
    expect(listed).toMatchObject({ state: 'paused' });
    expect(listed.pausedReason).toMatch(/503/);
    expect((await log(id)).deliveries[0]).toMatchObject({ state: 'failed', attempts: WEBHOOK_ATTEMPTS_MAX });
    // Paused: new events wait in the log; resumed, they go.
    await writeJson(api, 'POST', '/api/v1/requests/send', key, { customerPhone: uniquePhone() });
    await drain();
    expect(receiver.at('/down')).toHaveLength(WEBHOOK_ATTEMPTS_MAX);
    expect((await post(`/api/v1/webhooks/${id}/resume`)).body.data.state).toBe('active');
    await drain();
    expect(receiver.at('/down')).toHaveLength(WEBHOOK_ATTEMPTS_MAX + 1);
  });

  it('refuses bad endpoints, and at most ten per business', async () => {
    await api.business('many', 'Many');
    const many = await api.key('many');
    const make = (body: unknown) => writeJson(api, 'POST', '/api/v1/webhooks', many, body);
    const http = await make({ url: 'http://example.com/hook', events: ['request.sent'] });
    expectFailure(http, 'validation_failed');
    expect(Object.keys(http.body.fields)).toEqual(['url']);
    expect((await make({ url: receiver.url('/x'), events: [] })).body.fields).toHaveProperty('events');
    expect((await make({ url: receiver.url('/x'), events: ['nope'] })).status).toBe(400);
    for (let i = 0; i < WEBHOOK_ENDPOINTS_MAX; i++)
      expect((await make({ url: receiver.url(`/m${i}`), events: ['request.sent'] })).status).toBe(201);
    expectFailure(
      await make({ url: receiver.url('/one-more'), events: ['request.sent'] }),
      'webhook_limit_reached',
    );
    const list = (await getJson(api, '/api/v1/webhooks', many)).body.data.webhooks;
    expect(list).toHaveLength(WEBHOOK_ENDPOINTS_MAX);
    expect(JSON.stringify(list)).not.toMatch(/whsec_/);
    // Another business reads none of them, and cannot remove one.
    const removed = await api.fetch(`/api/v1/webhooks/${list[0].id}`, {
      method: 'DELETE',
      headers: sendHeaders(api, key),
    });
    expect(removed.status).toBe(404);
  });

  it('forgets deliveries after 30 days', async () => {
    const { id } = await endpoint('/old', ['request.sent']);
    await writeJson(api, 'POST', '/api/v1/requests/send', key, { customerPhone: uniquePhone() });
    await drain();
    expect((await log(id)).total).toBe(1);
    clock.advance(31 * 86_400_000);
    await until(async () => (await log(id)).total === 0, 10_000);
  });
});
