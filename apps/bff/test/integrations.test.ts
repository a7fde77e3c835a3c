import { integrationsSchema, webhookListSchema } from '@review-desk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RECEIVER_CA_FILE,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../test/support/webhook-receiver.ts';
import { addUser, startBff, type TestBff } from './support/bff.ts';
import type { DashboardClient } from './support/client.ts';
import { type DemoApi, startDemoApi } from './support/demo-api.ts';

// Settings → Integrations through /bff, in front of the real API (both real processes): an owner
// connects Square and turns automatic sends on, adds a webhook endpoint (its secret shown once),
// sends it a test event and reads the delivery log; a manager is refused before anything goes
// upstream, and the API key never reaches the browser.

let api: DemoApi;
let bff: TestBff;
let owner: DashboardClient;
let manager: DashboardClient;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  api = await startDemoApi('bff-integrations-', {
    WEBHOOKS_ALLOW_PRIVATE: '1',
    NODE_EXTRA_CA_CERTS: RECEIVER_CA_FILE,
  });
  bff = await startBff(api.url, api.keyFromFile);
  owner = await bff.owner();
  manager = await addUser(bff, owner, {
    email: 'manager@example.com',
    password: 'manager-password-long-enough',
    role: 'manager',
  });
});

afterAll(async () => {
  await bff?.stop();
  await api?.stop();
  await receiver?.close();
});

describe('/bff/integrations and /bff/webhooks', () => {
  it('an owner connects Square and turns automatic sends on; no secret comes back', async () => {
    const connected = await owner.request('PUT', '/bff/integrations/square', {
      body: { signatureKey: 'square-signature-key-123', automaticSends: true, delayMinutes: 90 },
    });
    expect(connected.status).toBe(200);
    const list = integrationsSchema.parse((await owner.get('/bff/integrations')).json.data);
    expect(list.integrations[0]).toMatchObject({
      source: 'square',
      connected: true,
      automaticSends: true,
      delayMinutes: 90,
    });
    expect(JSON.stringify(list)).not.toContain('square-signature-key-123');
    const bad = await owner.request('PUT', '/bff/integrations/square', { body: { delayMinutes: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.json.fields).toHaveProperty('delayMinutes');
  });

  it('an owner adds an endpoint, sends it a test event and reads its log', async () => {
    const made = await owner.post('/bff/webhooks', { url: receiver.url('/dash'), events: ['request.sent'] });
    expect(made.status).toBe(201);
    const { id, secret } = made.json.data as { id: string; secret: string };
    expect(secret).toMatch(/^whsec_/);
    expect((await owner.post(`/bff/webhooks/${id}/test`, {})).status).toBe(200);
    const [arrived] = await receiver.arrived('/dash', 1);
    const event = receiver.verify(arrived!, secret) as { type: string };
    expect(event.type).toBe('webhook.test');
    const listed = webhookListSchema.parse((await owner.get('/bff/webhooks')).json.data);
    expect(listed.webhooks.map((w) => w.id)).toContain(id);
    const log = await owner.get(`/bff/webhooks/${id}/deliveries?page=1&limit=20`);
    expect(log.json.data.deliveries[0]).toMatchObject({ type: 'webhook.test' });
    expect(log.text).not.toContain(api.demoKey());
    expect((await owner.request('DELETE', `/bff/webhooks/${id}`)).status).toBe(200);
  });

  it('refuses managers and bad ids before anything goes upstream', async () => {
    expect((await manager.get('/bff/webhooks')).status).toBe(403);
    expect(
      (await manager.post('/bff/webhooks', { url: receiver.url('/m'), events: ['request.sent'] })).status,
    ).toBe(403);
    expect((await manager.get('/bff/integrations')).status).toBe(403);
    expect((await owner.post('/bff/webhooks/not-an-id/rotate', {})).status).toBe(404);
    expect((await owner.post('/bff/webhooks/we_abc/explode', {})).status).toBe(404);
    const http = await owner.post('/bff/webhooks', { url: 'http://example.com/h', events: ['request.sent'] });
    expect(http.status).toBe(400);
  });
});
