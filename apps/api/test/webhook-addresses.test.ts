import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RECEIVER_CA,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../test/support/webhook-receiver.ts';
import { expectFailure, getJson, startTestApi, type TestApi, uniquePhone, writeJson } from './helpers.ts';

// Webhooks reach public addresses only (docs/api.md, "Webhooks"): a private, loopback or
// link-local address is refused when the endpoint is saved, and again at every delivery — an
// endpoint whose name pointed elsewhere when it was saved is refused once it points inside.

describe('webhooks to private addresses', () => {
  let api: TestApi;
  let receiver: WebhookReceiver;
  let key: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    api = await startTestApi({ frequencyCapDays: 0 }, { webhookCa: RECEIVER_CA });
    await api.business('inn', 'Inn');
    key = await api.key('inn');
  });
  afterAll(async () => {
    await api.stop();
    await receiver.close();
  });

  it('refuses a private address when the endpoint is saved', async () => {
    for (const url of [
      receiver.url('/x'),
      'https://localhost/hook',
      'https://169.254.169.254/latest',
      'https://[::1]/h',
    ]) {
      const made = await writeJson(api, 'POST', '/api/v1/webhooks', key, { url, events: ['request.sent'] });
      expectFailure(made, 'webhook_url_refused');
      expect(made.body.fields).toHaveProperty('url');
    }
  });

  it('refuses it again at delivery: nothing reaches the address', async () => {
    // As if its name resolved to a public address when saved and to this machine now.
    const business = (await api.ctx.store.businesses.bySlug('inn'))!;
    await api.ctx.store.webhookEndpoints.create(
      {
        id: 'we_movedinside',
        businessId: business.id,
        url: receiver.url('/inside'),
        events: ['request.sent'],
        sealedSecret: api.ctx.box.seal(
          'whsec_dGVzdHRlc3R0ZXN0dGVzdHRlc3R0ZXN0dGVzdHRlc3Q=',
          'we_movedinside',
        ),
        at: Date.now(),
      },
      10,
    );
    await writeJson(api, 'POST', '/api/v1/requests/send', key, { customerPhone: uniquePhone() });
    await api.ctx.dispatcher.current!.drain();
    expect(receiver.at('/inside')).toHaveLength(0);
    const log = await getJson(api, '/api/v1/webhooks/we_movedinside/deliveries', key);
    expect(log.body.data.deliveries[0]).toMatchObject({ state: 'pending', attempts: 1, lastStatus: null });
    expect(log.body.data.deliveries[0].lastError).toMatch(/private, loopback or link-local/);
  });
});
