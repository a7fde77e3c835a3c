import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPostgresDatabase } from '@review-desk/server/test-support/databases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBusiness } from '../src/accounts/businesses.ts';
import { createApiKey } from '../src/accounts/keys.ts';
import { testConfig } from '../src/env.ts';
import { type RunningApi, startApi } from '../src/server.ts';
import { type TestApi, until } from './helpers.ts';
import { customerReview, ownerWidget, ownerWrite, visitorData } from './support/widget.ts';

// Two replicas of the service on one PostgreSQL database: each keeps its visitors' widgets in
// its own memory, and a change made through one reaches what the other serves — through the
// database's notifications, not by reading the database on every view.

describe('the website widget on two replicas', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rd-widget-replicas-'));
  let drop: () => Promise<void>;
  let a: TestApi;
  let b: TestApi;
  let key: string;
  const running: RunningApi[] = [];

  /** What the widget tests' helpers need of a running service. */
  const driven = (api: RunningApi): TestApi =>
    ({
      ...api,
      clock: { now: Date.now() },
      fetch: (p: string, init?: RequestInit) => fetch(`${api.url}${p}`, init),
    }) as TestApi;

  beforeAll(async () => {
    const database = await createPostgresDatabase();
    drop = database.drop;
    const config = testConfig({
      databasePath: path.join(dir, 'unused.db'),
      databaseUrl: database.url,
      databasePoolSize: 4,
      devOutbox: true,
      rateLimitPerMinute: 1_000_000,
      publicOrigin: 'https://reviews.example.com',
    });
    for (let i = 0; i < 2; i++) running.push(await startApi(config));
    [a, b] = running.map(driven) as [TestApi, TestApi];
    await createBusiness(a.ctx.store, { slug: 'harbour', name: 'Harbour Street Coffee' }, Date.now());
    key = (
      await createApiKey(a.ctx.store, {
        businessSlug: 'harbour',
        scopes: ['review_requests:write', 'widget:read', 'widget:write'],
        now: Date.now(),
      })
    ).key;
  }, 60_000);
  afterAll(async () => {
    for (const api of running) await api.close();
    await drop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('follows on one replica what changed on the other, with no database read per view', async () => {
    const { id } = await ownerWidget(a, key);
    // The other replica heard the new id: it never looks it up.
    await until(() => b.ctx.widgets.stats().ids === 1);
    expect((await visitorData(b, id)).data).toMatchObject({ enabled: true, reviews: [] });

    await customerReview(a, key, { name: 'Maya Quinn', rating: 1, comment: 'Too loud', consent: true });
    await until(async () => (await visitorData(b, id)).body.data.reviews.length === 1);
    const built = b.ctx.widgets.stats().builds;
    for (let i = 0; i < 50; i++) expect((await visitorData(b, id)).status).toBe(200);
    expect(b.ctx.widgets.stats().builds).toBe(built);

    const owner = await ownerWidget(a, key);
    await ownerWrite(a, key, 'PUT', `/api/v1/widget/hidden/${owner.shown[0]!.id}`, { reason: 'abuse' });
    await until(async () => (await visitorData(b, id)).body.data.hidden.count === 1);
    expect((await visitorData(b, id)).body.data.reviews).toEqual([]);

    await ownerWrite(a, key, 'PUT', '/api/v1/widget', { enabled: false });
    await until(async () => (await visitorData(b, id)).body.data.enabled === false);
    expect(b.ctx.widgets.stats().lookups).toBe(0);
  });
});
