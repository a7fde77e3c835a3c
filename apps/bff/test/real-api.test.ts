import { analyticsResultSchema, DEMO_BUSINESS, OUTBOX_FAULTS, reviewListSchema } from '@review-desk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../test/support/processes.ts';
import { startBff, type TestBff } from './support/bff.ts';
import type { DashboardClient } from './support/client.ts';
import { type DemoApi, startDemoApi } from './support/demo-api.ts';

// The BFF in front of the real Review Collection API (apps/api), both as real processes.

let api: DemoApi;
let bff: TestBff; // demo key, X-API-Key
let bearer: TestBff; // a CLI-made key with every scope, Bearer
let limited: TestBff; // a key without analytics:read
let owner: DashboardClient;

async function createKey(scopes: string): Promise<string> {
  const out = await runCli('api', ['key', 'create', '--business', DEMO_BUSINESS.slug, '--scopes', scopes], {
    env: { DATABASE_PATH: api.databasePath },
  });
  return out.trim().split('\n').at(-1)!.trim();
}

beforeAll(async () => {
  api = await startDemoApi('bff-real-api-');
  const [allScopes, noAnalytics] = await Promise.all([
    createKey('review_requests:write,reviews:read,analytics:read'),
    createKey('review_requests:write,reviews:read'),
  ]);
  [bff, bearer, limited] = await Promise.all([
    startBff(api.url, { ...api.keyFromFile, UPSTREAM_TIMEOUT_MS: '5000' }),
    startBff(api.url, { UPSTREAM_API_KEY: allScopes, UPSTREAM_AUTH_SCHEME: 'bearer' }),
    startBff(api.url, { UPSTREAM_API_KEY: noAnalytics }),
  ]);
  owner = await bff.owner();
});

afterAll(async () => {
  await Promise.all([bff?.stop(), bearer?.stop(), limited?.stop()]);
  await api?.stop();
});

describe('against the real API', () => {
  it('reads the demo business’s reviews and analytics with the key in either scheme', async () => {
    const reviews = await owner.get('/api/v1/reviews?limit=5&minRating=4');
    expect(reviews.status).toBe(200);
    const list = reviewListSchema.parse(reviews.json.data);
    expect(list.limit).toBe(5);
    expect(list.total).toBeGreaterThan(0);
    expect(list.reviews.every((r) => r.rating >= 4)).toBe(true);

    const viaBearer = await (await bearer.owner()).get('/api/v1/analytics?days=30');
    expect(viaBearer.status).toBe(200);
    expect(analyticsResultSchema.safeParse(viaBearer.json.data).success).toBe(true);
  });

  it('passes the API’s Origin rule; the same POST without the BFF’s Origin is refused by the API', async () => {
    const body = { customerName: 'Ann Lee', customerPhone: '+14155552671', channel: 'sms' };
    const viaBff = await owner.send(body);
    expect(viaBff.status).toBe(200);
    expect(viaBff.json.data).toMatchObject({ status: 'sent', channel: 'sms', requestId: expect.any(String) });

    const key = api.demoKey();
    const direct = await fetch(`${api.url}/api/v1/requests/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ ...body, customerPhone: '+14155552672' }),
    });
    expect(direct.status).toBe(403);
    expect(((await direct.json()) as { code: string }).code).toBe('origin_refused');
  });

  it('names the missing scope when the server’s key lacks it, and says so apart from a session problem', async () => {
    const client = await limited.owner();
    const reply = await client.get('/api/v1/analytics');
    expect(reply.status).toBe(403);
    expect(reply.json.error).toMatch(/^The server’s API key lacks analytics:read/);
    expect(reply.headers.get('x-auth-required')).toBeNull();
    expect((await client.get('/api/v1/reviews')).status).toBe(200);
  });

  it('explains a refused key as the server’s, not the user’s', async () => {
    const wrong = await startBff(api.url, { UPSTREAM_API_KEY: `rd_live_${'x'.repeat(43)}` });
    try {
      const reply = await (await wrong.owner()).get('/api/v1/reviews');
      expect(reply.status).toBe(401);
      expect(reply.headers.get('x-auth-required')).toBeNull();
      expect(reply.json.error).toMatch(/refused the server’s API key/);
    } finally {
      await wrong.stop();
    }
  });

  it('a double submit sends one message; the replay is identical', async () => {
    const key = crypto.randomUUID();
    const body = { customerName: 'Bo', customerPhone: '+14155552673', channel: 'sms' };
    const [a, b] = await Promise.all([owner.send(body, key), owner.send(body, key)]);
    const statuses = [a.status, b.status].sort();
    expect([
      [200, 200],
      [200, 409],
    ]).toContainEqual(statuses);
    const replay = await owner.send(body, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.text).toBe((a.status === 200 ? a : b).text);
    expect(await api.outbox('+14155552673')).toHaveLength(1);
  });

  it('records a delivery warning, and a frequency-cap refusal as failed', async () => {
    const phone = `+1415555${OUTBOX_FAULTS.smsFailsWhenPhoneEndsWith}`;
    const both = {
      customerName: 'Cy',
      customerPhone: phone,
      customerEmail: 'cy@example.com',
      channel: 'both',
    };
    const first = await owner.send(both);
    expect(first.status).toBe(200);
    expect(first.json.data.warning).toEqual(expect.any(String));
    const again = await owner.send(both);
    expect(again.status).toBe(400);
    expect(again.json.error).toMatch(/This customer was sent a review request in the last \d+ days/);
    const history = await owner.get(`/bff/sends?contact=${encodeURIComponent(phone)}`);
    expect(history.json.data.sends.map((s: { outcome: string }) => s.outcome)).toEqual(['failed', 'warning']);
    expect(history.json.data.sends[1].requestId).toBe(first.json.data.requestId);
  });
});
