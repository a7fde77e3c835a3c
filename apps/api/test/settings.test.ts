import {
  DEFAULT_EMAIL_SUBJECT,
  DEFAULT_EMAIL_TEMPLATE,
  DEFAULT_SMS_TEMPLATE,
  EMAIL_OPT_OUT,
  SMS_OPT_OUT,
  sendResultSchema,
  settingsResponseSchema,
  successEnvelopeSchema,
} from '@review-desk/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApi } from '../src/server.ts';
import {
  describeEachEngine,
  expectFailure,
  getJson,
  outboxFor as outboxOf,
  send,
  uniqueEmail,
  uniquePhone,
  writeJson,
} from './helpers.ts';

// GET/PUT /api/v1/settings over real HTTP on a real database (each engine): defaults from the
// configuration, scopes, the Origin rule, field-named refusals, and sends written with the
// business's own words.

/** The service: sending hours 09:00–20:00 in London, no reminder. */
const SERVICE = {
  quietHours: { start: 9 * 60, end: 20 * 60 },
  businessTimeZone: 'Europe/London',
  reminderAfterDays: 0,
};

describeEachEngine(SERVICE, (api) => {
  let key: string;

  beforeAll(async () => {
    // Noon in London: inside the sending window, so the sends below go out at once.
    const today = new Date();
    api.clock.now = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 12);
    await api.business('bakery', 'Crumb & Co');
    key = await api.key('bakery');
  });

  async function getSettings(k = key) {
    return getJson(api, '/api/v1/settings', k);
  }

  const putSettings = (body: unknown, k = key, headers: Record<string, string> = {}) =>
    writeJson(api, 'PUT', '/api/v1/settings', k, body, headers);

  const settingsOf = (body: unknown) => successEnvelopeSchema(settingsResponseSchema).parse(body).data;

  const outboxFor = (requestId: string) => outboxOf(api, requestId);

  describe('GET /api/v1/settings', () => {
    it('answers the defaults: the built-in words and the configured sending window and zone', async () => {
      const result = await getSettings();
      expect(result.status).toBe(200);
      const data = settingsOf(result.body);
      expect(data.settings).toEqual({
        smsTemplate: DEFAULT_SMS_TEMPLATE,
        emailSubject: DEFAULT_EMAIL_SUBJECT,
        emailTemplate: DEFAULT_EMAIL_TEMPLATE,
        reminderAfterDays: 0,
        quietHours: { start: '09:00', end: '20:00' },
        timeZone: 'Europe/London',
        reviewSiteUrl: 'https://reviews.example.com/bakery',
      });
      expect(data.preview.businessName).toBe('Crumb & Co');
      expect(data.preview.reviewLink).toMatch(
        new RegExp(`^${api.ctx.site.publicOrigin}/r/[A-Za-z0-9_-]{43}$`),
      );
    });

    it('needs a key with settings:read', async () => {
      expectFailure(await getJson(api, '/api/v1/settings'), 'key_missing');
      const reviewsOnly = await api.key('bakery', ['reviews:read']);
      const message = expectFailure(await getSettings(reviewsOnly), 'scope_missing');
      expect(message).toContain('settings:read');
      expect((await getSettings(await api.key('bakery', ['settings:read']))).status).toBe(200);
    });

    it('refuses other methods with 405 and Allow', async () => {
      const response = await api.fetch('/api/v1/settings', {
        method: 'DELETE',
        headers: { 'x-api-key': key },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toMatch(/GET.*PUT/);
    });
  });

  describe('PUT /api/v1/settings', () => {
    it('needs settings:write and the Origin rule, like a send', async () => {
      const readOnly = await api.key('bakery', ['settings:read']);
      const message = expectFailure(await putSettings({ reminderAfterDays: 2 }, readOnly), 'scope_missing');
      expect(message).toContain('settings:write');
      const noOrigin = await api.fetch('/api/v1/settings', {
        method: 'PUT',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ reminderAfterDays: 2 }),
      });
      expectFailure(
        { status: noOrigin.status, headers: noOrigin.headers, body: await noOrigin.json() },
        'origin_refused',
      );
      expect(settingsOf((await getSettings()).body).settings.reminderAfterDays).toBe(0);
    });

    it.each([
      [
        { smsTemplate: 'Thanks for visiting {business_name}!' },
        'smsTemplate',
        /must contain \{review_link\}/,
      ],
      [
        { emailTemplate: 'Hi {first_name} {review_link}' },
        'emailTemplate',
        /unknown placeholder \{first_name\}/,
      ],
      [{ smsTemplate: `${'a'.repeat(420)} {review_link}` }, 'smsTemplate', /4 segments/],
      [{ emailSubject: 'Rate {review_link}' }, 'emailSubject', /must not contain \{review_link\}/],
      [{ reminderAfterDays: 30 }, 'reminderAfterDays', /none or after 1 to 14 days/],
      [{ quietHours: { start: '09:00', end: '25:00' } }, 'quietHours.end', /HH:MM/],
      [{ timeZone: 'Narnia/Cair_Paravel' }, 'timeZone', /a time zone such as Europe\/London/],
      [{ reviewSiteUrl: 'javascript:alert(1)' }, 'reviewSiteUrl', /a web address starting with https:/],
      [{ colour: 'red' }, 'colour', /Unknown field/],
    ])('refuses %j with 400 naming %s, and changes nothing', async (body, field, message) => {
      const before = settingsOf((await getSettings()).body).settings;
      const result = await putSettings({ reminderAfterDays: 5, ...body });
      const error = expectFailure(result, 'validation_failed');
      expect(error).toMatch(message);
      expect(Object.keys(result.body.fields)).toEqual([field]);
      expect(result.body.fields[field]).toMatch(message);
      expect(settingsOf((await getSettings()).body).settings).toEqual(before);
    });

    it('refuses a body that is not a JSON object', async () => {
      expectFailure(await putSettings([1, 2]), 'validation_failed');
      expectFailure(await putSettings(null), 'malformed_json');
    });

    it('changes the fields sent, keeps the others, and answers the result', async () => {
      const result = await putSettings({
        reminderAfterDays: 3,
        quietHours: { start: '22:00', end: '06:00' },
      });
      expect(result.status).toBe(200);
      const { settings } = settingsOf(result.body);
      expect(settings).toMatchObject({
        reminderAfterDays: 3,
        quietHours: { start: '22:00', end: '06:00' },
        timeZone: 'Europe/London',
        smsTemplate: DEFAULT_SMS_TEMPLATE,
      });
      expect(settingsOf((await getSettings()).body).settings).toEqual(settings);
      expect(await api.ctx.settings.quietHoursFor(await lookupBusinessId('bakery'))).toEqual({
        window: { start: 22 * 60, end: 6 * 60 },
        timeZone: 'Europe/London',
      });
      // null: send at any hour.
      await putSettings({ quietHours: null, timeZone: 'America/New_York' });
      expect(await api.ctx.settings.quietHoursFor(await lookupBusinessId('bakery'))).toEqual({
        window: null,
        timeZone: 'America/New_York',
      });
    });

    it('keeps the review site address on the business: the review page hands off to it', async () => {
      await putSettings({ reviewSiteUrl: 'https://g.page/r/crumb/review' });
      expect((await api.ctx.store.businesses.bySlug('bakery'))?.review_url).toBe(
        'https://g.page/r/crumb/review',
      );
      await putSettings({ reviewSiteUrl: null });
      expect(settingsOf((await getSettings()).body).settings.reviewSiteUrl).toBeNull();
      expect((await api.ctx.store.businesses.bySlug('bakery'))?.review_url).toBeNull();
    });
  });

  async function lookupBusinessId(slug: string): Promise<number> {
    return (await api.ctx.store.businesses.bySlug(slug))!.id;
  }

  describe('sends use the business’s words', () => {
    it('writes the SMS and the email from the templates, with the fallback and the opt-out words', async () => {
      const put = await putSettings({
        smsTemplate: 'Hey {customer_name|friend}! Crumbs from {business_name}: rate us {review_link}',
        emailSubject: '{customer_name|Hello}, a minute for {business_name}?',
        emailTemplate: 'Dear {customer_name|customer},\n\nTell us: {review_link}\n\nThe bakers',
      });
      expect(put.status).toBe(200);
      const phone = uniquePhone();
      const email = uniqueEmail();
      const named = await send(api, key, {
        customerName: 'Ada',
        customerPhone: phone,
        customerEmail: email,
        channel: 'both',
      });
      const data = successEnvelopeSchema(sendResultSchema).parse(named.body).data;
      const messages = await outboxFor(data.requestId);
      const sms = messages.find((m) => m.channel === 'sms')!;
      const mail = messages.find((m) => m.channel === 'email')!;
      expect(sms.body).toBe(`Hey Ada! Crumbs from Crumb & Co: rate us ${data.reviewLink} ${SMS_OPT_OUT}`);
      expect(mail.subject).toBe('Ada, a minute for Crumb & Co?');
      expect(mail.body).toBe(`Dear Ada,\n\nTell us: ${data.reviewLink}\n\nThe bakers\n\n${EMAIL_OPT_OUT}`);

      const anonymous = await send(api, key, { customerPhone: uniquePhone() });
      const anonymousData = successEnvelopeSchema(sendResultSchema).parse(anonymous.body).data;
      const [anonymousSms] = await outboxFor(anonymousData.requestId);
      expect(anonymousSms!.body).toBe(
        `Hey friend! Crumbs from Crumb & Co: rate us ${anonymousData.reviewLink} ${SMS_OPT_OUT}`,
      );
    });

    it('another business keeps the built-in words', async () => {
      await api.business('florist', 'Petal Place');
      const other = await api.key('florist');
      expect(settingsOf((await getSettings(other)).body).settings.smsTemplate).toBe(DEFAULT_SMS_TEMPLATE);
      const result = await send(api, other, { customerName: 'Bo', customerPhone: uniquePhone() });
      const data = successEnvelopeSchema(sendResultSchema).parse(result.body).data;
      const [sms] = await outboxFor(data.requestId);
      expect(sms!.body).toBe(
        `Hi Bo, thanks for choosing Petal Place! How did we do? ${data.reviewLink} ${SMS_OPT_OUT}`,
      );
    });
  });

  describe('persistence', () => {
    it('keeps the settings in the service’s database across a restart', async () => {
      await putSettings({ reminderAfterDays: 7 });
      const again = await startApi(api.ctx.config, { now: () => api.clock.now });
      try {
        const response = await fetch(`${again.url}/api/v1/settings`, { headers: { 'x-api-key': key } });
        expect(settingsOf(await response.json()).settings.reminderAfterDays).toBe(7);
      } finally {
        await again.close();
      }
    });
  });
});
