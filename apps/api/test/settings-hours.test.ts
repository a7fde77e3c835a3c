import { FakeClock } from '@review-desk/server/clock';
import { sendResultSchema, successEnvelopeSchema } from '@review-desk/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, send as sendAs, uniquePhone, useTestApi, writeJson } from './helpers.ts';

// A business's own sending hours and time zone (PUT /api/v1/settings) are what holds its sends:
// the service's default (here: any hour) still applies to a business that set none.

describe.each(ENGINES)('%s', (engine) => {
  const EVENING_UTC = Date.parse('2030-01-15T23:00:00Z'); // 18:00 in New York
  const NEW_YORK_OPENING = Date.parse('2030-01-16T14:00:00Z'); // 09:00 in New York
  const clock = new FakeClock(EVENING_UTC);

  const api = useTestApi(
    { monthlySendAllowance: 0, frequencyCapDays: 0, quietHours: null, businessTimeZone: 'UTC' },
    { engine, clock },
  );
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    for (const slug of ['deli', 'diner']) {
      await api.business(slug, `The ${slug}`, null);
      keys[slug] = await api.key(slug);
    }
  });

  const putSettings = (slug: string, body: unknown) =>
    writeJson(api, 'PUT', '/api/v1/settings', keys[slug] as string, body);

  async function send(slug: string) {
    const result = await sendAs(api, keys[slug] as string, {
      customerName: 'Ada',
      customerPhone: uniquePhone(),
    });
    return successEnvelopeSchema(sendResultSchema).parse(result.body).data;
  }

  describe('a business’s own sending hours', () => {
    it('hold its evening sends until its own opening in its own zone; another business sends at once', async () => {
      const put = await putSettings('deli', {
        quietHours: { start: '09:00', end: '17:00' },
        timeZone: 'America/New_York',
      });
      expect(put.status).toBe(200);

      const held = await send('deli');
      expect(held).toMatchObject({
        status: 'scheduled',
        scheduledFor: new Date(NEW_YORK_OPENING).toISOString(),
      });
      expect((await send('diner')).status).toBe('sent');

      // Sending at any hour again: the next send leaves at once.
      await putSettings('deli', { quietHours: null });
      expect((await send('deli')).status).toBe('sent');
    });
  });
});
