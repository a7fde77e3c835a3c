import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestReviewLink } from './support/review-page.ts';
import { type SystemApi, startSystemApi, waitFor } from './support/stack.ts';
import { RECEIVER_CA_FILE, startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

// An event's delivery survives the service's death (docs/reliability.md): the API as a real
// process, its webhook endpoint a stand-in receiver over HTTPS that holds the first attempt open.
// SIGKILL while the attempt hangs, start again: the same event (same webhook-id, same body) is
// delivered once the service is back, and the log says delivered.

describe('events out across a SIGKILL', () => {
  let api: SystemApi;
  let receiver: WebhookReceiver;
  let key: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    api = await startSystemApi({
      WEBHOOKS_ALLOW_PRIVATE: '1',
      // The receiver's certificate is the test's own authority.
      NODE_EXTRA_CA_CERTS: RECEIVER_CA_FILE,
    });
    key = await api.createKey('review_requests:write,webhooks:write');
  });
  afterAll(async () => {
    await api?.cleanup();
    await receiver?.close();
  });

  it('delivers an event written before the kill once the service is back, with the same webhook-id', async () => {
    const made = await fetch(`${api.url}/api/v1/webhooks`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', origin: api.url },
      body: JSON.stringify({ url: receiver.url('/crm'), events: ['request.sent'] }),
    });
    expect(made.status).toBe(201);
    const { id: endpoint, secret } = ((await made.json()) as { data: { id: string; secret: string } }).data;
    receiver.behave('/crm', { hang: true });
    const { sent } = await requestReviewLink(api.url, key, { customerPhone: '+14155552399' });
    expect(sent.status).toBe(200);
    await waitFor(() => receiver.at('/crm').length === 1, 10_000, 'the first attempt');

    await api.stop('SIGKILL');
    receiver.release();
    await api.restart();
    await waitFor(() => receiver.at('/crm').length === 2, 15_000, 'the event delivered after the restart');
    const [first, second] = receiver.at('/crm');
    expect(second?.id).toBe(first?.id);
    expect(second?.body).toBe(first?.body);
    expect((receiver.verify(second!, secret) as { data: { id: string } }).data.id).toBe(
      sent.json.data.requestId,
    );
    await waitFor(
      async () => {
        const log = await fetch(`${api.url}/api/v1/webhooks/${endpoint}/deliveries`, {
          headers: { 'x-api-key': key },
        });
        return (
          ((await log.json()) as { data: { deliveries: { state: string }[] } }).data.deliveries[0]?.state ===
          'delivered'
        );
      },
      10_000,
      'the log says delivered',
    );
  });
});
