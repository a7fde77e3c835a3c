import { WEBHOOK_ATTEMPTS_MAX, WEBHOOK_RETRY_DELAYS_MS } from '@review-desk/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { drainDevJobs, moveDevClock } from '../../../test/support/dev-clock.ts';
import { request } from '../../../test/support/http.ts';
import {
  RECEIVER_CA_FILE,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../test/support/webhook-receiver.ts';
import { nextPolls } from './support/alerts.ts';
import { addUser, OWNER, startBff, type TestBff } from './support/bff.ts';
import type { DashboardClient } from './support/client.ts';
import { type DemoApi, startDemoApi } from './support/demo-api.ts';

// The owners are told when a webhook endpoint is paused (docs/alerts.md): the real API pauses an
// endpoint whose deliveries failed for three days (its clock moved over the dev hooks), and the
// BFF's next poll of the location emails each owner once (kept on its dev outbox page), never a
// manager, never twice for the same pause, and again for a later pause after a resume.

let api: DemoApi;
let bff: TestBff;
let owner: DashboardClient;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  api = await startDemoApi('bff-pauses-', {
    WEBHOOKS_ALLOW_PRIVATE: '1',
    NODE_EXTRA_CA_CERTS: RECEIVER_CA_FILE,
    DEV_CLOCK: '1',
  });
  bff = await startBff(api.url, { ...api.keyFromFile, BFF_DEV_HOOKS: '1', ALERT_POLL_SECONDS: '1' });
  owner = await bff.owner();
  await addUser(bff, owner, {
    email: 'manager@example.com',
    password: 'manager-password-long',
    role: 'manager',
  });
}, 60_000);

afterAll(async () => {
  await bff?.stop();
  await api?.stop();
  await receiver?.close();
});

type Email = { to: string; subject: string; text: string; html: string };
const pauseEmails = async (): Promise<Email[]> =>
  ((await request(bff.url, '/dev/outbox.json')).json.data.messages as Email[]).filter((m) =>
    m.subject.includes('webhook endpoint was paused'),
  );

/** A request whose request.sent event the endpoint refuses until the API pauses it. */
async function failUntilPaused(id: string, path: string): Promise<void> {
  receiver.behave(path, { statuses: Array(WEBHOOK_ATTEMPTS_MAX).fill(503) });
  const sent = await owner.send({
    customerPhone: `+1415555${String(1000 + Math.floor(Math.random() * 8999))}`,
  });
  expect(sent.status).toBe(200);
  await drainDevJobs(api.url);
  for (const wait of WEBHOOK_RETRY_DELAYS_MS) {
    await moveDevClock(api.url, { advanceMs: Math.ceil(wait * 1.2) });
    await drainDevJobs(api.url);
  }
  const listed = await owner.get('/bff/webhooks');
  const endpoint = (listed.json.data.webhooks as { id: string; state: string }[]).find((w) => w.id === id);
  expect(endpoint?.state).toBe('paused');
}

it('emails each owner once when an endpoint is paused, and again for a later pause', async () => {
  const path = '/paused';
  const made = await owner.post('/bff/webhooks', { url: receiver.url(path), events: ['request.sent'] });
  expect(made.status).toBe(201);
  const { id } = made.json.data as { id: string };
  await nextPolls(bff);
  expect(await pauseEmails()).toEqual([]);

  await failUntilPaused(id, path);
  await nextPolls(bff);
  const [told, ...more] = await pauseEmails();
  expect(more).toEqual([]);
  expect(told).toMatchObject({ to: OWNER.email });
  expect(told!.text).toContain(receiver.url(path));
  expect(told!.text).toContain('503');
  expect(told!.text).toMatch(
    /Resume it in Settings → Integrations: http:\/\/127\.0\.0\.1:\d+\/l\/[^/]+\/settings/,
  );
  expect(JSON.stringify(told)).not.toContain(api.demoKey());

  // The next polls find the same pause: nothing more is sent.
  await nextPolls(bff, 3);
  expect(await pauseEmails()).toHaveLength(1);

  // Resumed, then paused again: a new pause, told again.
  expect((await owner.post(`/bff/webhooks/${id}/resume`, {})).status).toBe(200);
  await drainDevJobs(api.url);
  await nextPolls(bff);
  await failUntilPaused(id, path);
  await nextPolls(bff);
  expect(await pauseEmails()).toHaveLength(2);
}, 120_000);
