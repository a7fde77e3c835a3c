import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FakeTwilio, startFakeTwilio } from '../../../test/support/fake-twilio.ts';
import {
  RECEIVER_CA,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../test/support/webhook-receiver.ts';
import { send, startTestApi, type TestApi, uniquePhone, writeJson } from './helpers.ts';
import { fakeTwilioConfig } from './support/twilio-config.ts';

// contact.opted_out from a STOP texted to the service's number (docs/api.md, "Webhooks"): every
// business that texted the phone from that number is told, signed, with source sms_stop; a
// business that never texted it is not; a START tells nobody.

const FROM = '+15005550006';
let fake: FakeTwilio;
let receiver: WebhookReceiver;
let api: TestApi;

beforeAll(async () => {
  fake = await startFakeTwilio({ receiptDelayMs: 5 });
  receiver = await startWebhookReceiver();
  api = await startTestApi(
    {
      devOutbox: false,
      monthlySendAllowance: 0,
      frequencyCapDays: 0,
      smsProvider: 'twilio',
      twilio: fakeTwilioConfig(fake, { from: FROM }),
      webhooks: { allowPrivate: true },
    },
    { webhookCa: RECEIVER_CA },
  );
});
afterAll(async () => {
  await api?.stop();
  await fake?.close();
  await receiver?.close();
});

/** A business with an endpoint for contact.opted_out at `path`: its key and the endpoint's secret. */
async function business(slug: string, path: string): Promise<{ key: string; secret: string }> {
  await api.business(slug, slug);
  const key = await api.key(slug);
  const made = await writeJson(api, 'POST', '/api/v1/webhooks', key, {
    url: receiver.url(path),
    events: ['contact.opted_out'],
  });
  expect(made.status).toBe(201);
  return { key, secret: made.body.data.secret as string };
}

it('a STOP tells each business that texted the phone, signed, and no other; a START tells nobody', async () => {
  const shop = await business('stop-shop', '/shop');
  const cafe = await business('stop-cafe', '/cafe');
  await business('stop-bystander', '/bystander');
  const phone = uniquePhone();
  for (const { key } of [shop, cafe])
    expect((await send(api, key, { customerPhone: phone })).status).toBe(200);

  const inbound = `${api.ctx.site.publicOrigin}/webhooks/twilio/inbound`;
  expect((await fake.inbound(inbound, { from: phone, to: FROM, body: 'STOP' })).status).toBe(200);
  await api.ctx.dispatcher.current!.drain();

  for (const [path, { secret }] of [
    ['/shop', shop],
    ['/cafe', cafe],
  ] as const) {
    const [arrived, ...more] = receiver.at(path);
    expect(more).toEqual([]);
    const event = receiver.verify(arrived!, secret) as { type: string; data: unknown };
    expect(event.type).toBe('contact.opted_out');
    expect(event.data).toEqual({ phone, email: null, source: 'sms_stop', requestId: null });
  }
  expect(receiver.at('/bystander')).toEqual([]);

  expect((await fake.inbound(inbound, { from: phone, to: FROM, body: 'START' })).status).toBe(200);
  await api.ctx.dispatcher.current!.drain();
  expect(receiver.at('/shop')).toHaveLength(1);
  expect(receiver.at('/cafe')).toHaveLength(1);
});
