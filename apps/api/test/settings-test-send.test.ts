import {
  DEFAULT_EMAIL_SUBJECT,
  outboxListSchema,
  renderEmail,
  renderSms,
  requestListSchema,
  SAMPLE_CUSTOMER_NAME,
  settingsTestResultSchema,
  successEnvelopeSchema,
  TEST_SENDS_PER_HOUR,
} from '@review-desk/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_SENDS_KEPT } from '../src/settings/test-sends-store.ts';
import {
  type Body,
  describeEachEngine,
  expectFailure,
  getJson,
  sendHeaders,
  sendOk,
  uniqueEmail,
  uniquePhone,
} from './helpers.ts';

// POST /api/v1/settings/test over real HTTP on a real database (each engine): the words on the
// owner's screen (or the saved ones) with a sample name and link, through the outbox provider,
// shown in the development outbox as a test; never a request, never counted against the allowance
// or the frequency cap; at most TEST_SENDS_PER_HOUR per business in any hour.

/** The service: any hour, one send a month, a 30-day cap, reminders after 3 days. */
const SERVICE = {
  quietHours: null,
  monthlySendAllowance: 1,
  frequencyCapDays: 30,
  reminderAfterDays: 3,
};

describeEachEngine(SERVICE, (api) => {
  const HOUR = 3_600_000;
  let key: string;
  let cafeId: number;

  beforeAll(async () => {
    cafeId = (await api.business('cafe', 'Bean There')).id;
    await api.business('bar', 'The Tap');
    key = await api.key('cafe');
  });

  async function sendTest(body: unknown, k = key, headers?: Record<string, string>) {
    const response = await api.fetch('/api/v1/settings/test', {
      method: 'POST',
      headers: headers ?? sendHeaders(api, k),
      body: JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Body };
  }

  async function outboxTo(to: string) {
    const result = await getJson(api, `/dev/outbox.json?to=${encodeURIComponent(to)}`);
    return successEnvelopeSchema(outboxListSchema).parse(result.body).data.messages;
  }

  const preview = async () => (await getJson(api, '/api/v1/settings', key)).body.data.preview;

  describe('POST /api/v1/settings/test', () => {
    it('sends the edited, unsaved words with a sample name and link, marked as a test in the outbox', async () => {
      const phone = uniquePhone();
      const smsTemplate = 'Hey {customer_name}! {business_name} would love a word: {review_link}';
      const result = await sendTest({ channel: 'sms', to: phone, templates: { smsTemplate } });
      expect(result.status).toBe(200);
      const data = successEnvelopeSchema(settingsTestResultSchema).parse(result.body).data;
      expect(data).toEqual({ channel: 'sms', to: phone, status: 'sent', error: null, remaining: 4 });

      const { businessName, reviewLink } = await preview();
      const [message] = await outboxTo(phone);
      expect(message).toMatchObject({ test: true, channel: 'sms', status: 'accepted', reviewLink });
      expect(message!.body).toBe(
        renderSms({ smsTemplate }, { customerName: SAMPLE_CUSTOMER_NAME, businessName, reviewLink }),
      );
      expect(message!.body).toContain('Hey Alexandra Whitfield! Bean There would love a word');
      expect(message!.requestId).toMatch(/^test_\d+$/);
      // Found again by its id, and never as a request of the service.
      const byId = await getJson(api, `/dev/outbox.json?requestId=${message!.requestId}`);
      expect(byId.body.data.messages).toHaveLength(1);
      const page = await api.fetch(`/dev/outbox?to=${encodeURIComponent(phone)}`);
      expect(await page.text()).toContain('<strong>Test</strong> (not a request)');
      // The edit was not saved.
      expect((await getJson(api, '/api/v1/settings', key)).body.data.settings.smsTemplate).not.toBe(
        smsTemplate,
      );
    });

    it('uses the saved words for any template left out; is not a request, nor counted by the allowance or the cap', async () => {
      const email = uniqueEmail();
      const result = await sendTest({ channel: 'email', to: email.toUpperCase() });
      expect(result.status).toBe(200);
      expect(result.body.data.to).toBe(email);
      const [message] = await outboxTo(email);
      const { businessName, reviewLink } = await preview();
      const rendered = renderEmail(
        {
          emailSubject: DEFAULT_EMAIL_SUBJECT,
          emailTemplate: (await getJson(api, '/api/v1/settings', key)).body.data.settings.emailTemplate,
        },
        { customerName: SAMPLE_CUSTOMER_NAME, businessName, reviewLink },
      );
      expect(message).toMatchObject({ test: true, subject: rendered.subject, body: rendered.body });

      const requests = await getJson(api, '/api/v1/requests', key);
      expect(successEnvelopeSchema(requestListSchema).parse(requests.body).data.total).toBe(0);
      // The month's one request and the 30-day cap are untouched by the test to this address.
      await sendOk(api, key, { customerEmail: email, channel: 'email' });
    });

    it('refuses bad words and a bad destination, naming the field, and counts nothing', async () => {
      const refused = await sendTest({
        channel: 'sms',
        to: uniquePhone(),
        templates: { smsTemplate: 'No link here' },
      });
      expect(expectFailure(refused, 'validation_failed')).toBeTruthy();
      expect(refused.body.fields.smsTemplate).toMatch(/must contain \{review_link\}/);
      const badPhone = await sendTest({ channel: 'sms', to: '12' });
      expectFailure(badPhone, 'validation_failed');
      expect(Object.keys(badPhone.body.fields)).toEqual(['to']);
      expectFailure(await sendTest({ channel: 'fax', to: 'x' }), 'validation_failed');
      const ok = await sendTest({ channel: 'sms', to: uniquePhone() });
      expect(ok.body.data.remaining).toBe(2); // two earlier tests, then this one
    });

    it('answers a carrier refusal with the envelope; the test counts and shows as failed', async () => {
      const refused = await sendTest({ channel: 'sms', to: '+14155550000' });
      expect(expectFailure(refused, 'delivery_failed')).toMatch(/^The test was not sent: /);
      const [message] = await outboxTo('+14155550000');
      expect(message).toMatchObject({ test: true, status: 'failed' });
    });

    it(`allows ${TEST_SENDS_PER_HOUR} per business in any hour, says when the next can go, and keeps few rows`, async () => {
      const start = api.clock.now;
      expect((await sendTest({ channel: 'sms', to: uniquePhone() })).status).toBe(200); // the fifth
      const limited = await sendTest({ channel: 'sms', to: uniquePhone() });
      expect(expectFailure(limited, 'test_send_limited')).toMatch(/At most 5 test messages per business/);
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      // Another business has its own count.
      expect((await sendTest({ channel: 'sms', to: uniquePhone() }, await api.key('bar'))).status).toBe(200);

      api.clock.now = start + HOUR + 1;
      expect((await sendTest({ channel: 'sms', to: uniquePhone() })).status).toBe(200);
      // Flooded over many hours, a business keeps only its newest rows.
      for (let hour = 2; hour < 7; hour++) {
        api.clock.now = start + hour * HOUR + 1;
        for (let i = 0; i < TEST_SENDS_PER_HOUR; i++) await sendTest({ channel: 'sms', to: uniquePhone() });
      }
      const kept = await api.ctx.settings.testSends({}, 1000);
      expect(kept.filter((row) => row.business_id === cafeId)).toHaveLength(TEST_SENDS_KEPT);
    });

    it('needs settings:write and the Origin rule', async () => {
      const reader = await api.key('cafe', ['settings:read']);
      expectFailure(await sendTest({ channel: 'sms', to: uniquePhone() }, reader), 'scope_missing');
      const noOrigin = sendHeaders(api, key);
      delete noOrigin.origin;
      expectFailure(await sendTest({ channel: 'sms', to: uniquePhone() }, key, noOrigin), 'origin_refused');
      const get = await api.fetch('/api/v1/settings/test', { headers: { 'x-api-key': key } });
      expect(get.status).toBe(405);
    });
  });
});
