import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FakeClock } from '@review-desk/server/db/clock';
import { SCOPES, sendResultSchema, successEnvelopeSchema } from '@review-desk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBusiness } from '../src/domain/businesses.ts';
import { createApiKey } from '../src/domain/keys.ts';
import { testConfig } from '../src/env.ts';
import { type RunningApi, startApi } from '../src/server.ts';
import { ENGINES, type TestDatabaseConfig, testDatabase, uniquePhone } from './helpers.ts';

// A business's own sending hours and time zone (PUT /api/v1/settings) are what holds its sends:
// the service's default (here: any hour) still applies to a business that set none.

describe.each(ENGINES)('%s', (engine) => {
  const EVENING_UTC = Date.parse('2030-01-15T23:00:00Z'); // 18:00 in New York
  const NEW_YORK_OPENING = Date.parse('2030-01-16T14:00:00Z'); // 09:00 in New York

  let api: RunningApi;
  let dir: string;
  let database: TestDatabaseConfig;
  const keys: Record<string, string> = {};
  const clock = new FakeClock(EVENING_UTC);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rd-settings-hours-'));
    database = await testDatabase(engine, dir);
    api = await startApi(
      testConfig({
        ...database.config,
        devOutbox: true,
        monthlySendAllowance: 0,
        frequencyCapDays: 0,
        quietHours: null,
        businessTimeZone: 'UTC',
      }),
      { clock },
    );
    for (const slug of ['deli', 'diner']) {
      await createBusiness(api.ctx.store, { slug, name: `The ${slug}`, reviewUrl: null }, clock.now());
      keys[slug] = (
        await createApiKey(api.ctx.store, {
          businessSlug: slug,
          scopes: [...SCOPES],
          now: clock.now(),
        })
      ).key;
    }
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const headers = (slug: string) => ({
    'x-api-key': keys[slug] as string,
    'content-type': 'application/json',
    origin: api.ctx.site.publicOrigin,
  });

  async function send(slug: string) {
    const response = await fetch(`${api.url}/api/v1/requests/send`, {
      method: 'POST',
      headers: headers(slug),
      body: JSON.stringify({ customerName: 'Ada', customerPhone: uniquePhone() }),
    });
    return successEnvelopeSchema(sendResultSchema).parse(await response.json()).data;
  }

  describe('a business’s own sending hours', () => {
    it('hold its evening sends until its own opening in its own zone; another business sends at once', async () => {
      const put = await fetch(`${api.url}/api/v1/settings`, {
        method: 'PUT',
        headers: headers('deli'),
        body: JSON.stringify({ quietHours: { start: '09:00', end: '17:00' }, timeZone: 'America/New_York' }),
      });
      expect(put.status).toBe(200);

      const held = await send('deli');
      expect(held).toMatchObject({
        status: 'scheduled',
        scheduledFor: new Date(NEW_YORK_OPENING).toISOString(),
      });
      expect((await send('diner')).status).toBe('sent');

      // Sending at any hour again: the next send leaves at once.
      await fetch(`${api.url}/api/v1/settings`, {
        method: 'PUT',
        headers: headers('deli'),
        body: JSON.stringify({ quietHours: null }),
      });
      expect((await send('deli')).status).toBe('sent');
    });
  });
});
