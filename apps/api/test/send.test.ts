import {
  ERROR_CODES,
  JSON_BODY_LIMIT_BYTES,
  MESSAGES,
  SEND_STATUS_SENT,
  sendResultSchema,
  successEnvelopeSchema,
} from '@review-desk/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { optOut } from '../src/review-page/visits.ts';
import {
  bothChannels,
  describeEachEngine,
  expectFailure,
  outboxFor as outboxOf,
  queryAll,
  send,
  sendHeaders,
  sendOk,
  startTestApi,
  uniqueEmail,
  uniquePhone,
} from './helpers.ts';

// POST /api/v1/requests/send (docs/api.md, "Sending"): channel rules, the Origin rule, deliveries
// and their failures, the frequency cap, opt-outs and the sending allowance.

describeEachEngine({ monthlySendAllowance: 0 }, (api, engine) => {
  let key: string;

  beforeAll(async () => {
    await api.business('shop', 'Corner Shop');
    key = await api.key('shop');
  });

  const outboxFor = (requestId: string) => outboxOf(api, requestId);

  describe('channels and the contacts each needs', () => {
    it('sms is the default channel and the message carries the review link', async () => {
      const phone = uniquePhone();
      const result = await sendOk(api, key, { customerName: 'Ada', customerPhone: phone });
      const data = successEnvelopeSchema(sendResultSchema).parse(result.body).data;
      expect(data).toMatchObject({ status: SEND_STATUS_SENT, channel: 'sms' });
      expect(data.warning).toBeUndefined();
      expect(data.reviewLink).toMatch(new RegExp(`^${api.ctx.site.publicOrigin}/r/[A-Za-z0-9_-]{43}$`));
      const messages = await outboxFor(data.requestId);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({
        channel: 'sms',
        to: phone,
        status: 'accepted',
        reviewLink: data.reviewLink,
      });
      expect(messages[0]!.body).toContain(data.reviewLink);
      expect(messages[0]!.body).toContain('Ada');
    });

    it('normalises the phone to E.164 (one contact, one spelling)', async () => {
      const result = await sendOk(api, key, { customerPhone: '+1 (415) 555-7001' });
      const [message] = await outboxFor(result.body.data.requestId);
      expect(message!.to).toBe('+14155557001');
    });

    it('email sends one email with a subject', async () => {
      const email = uniqueEmail();
      const result = await sendOk(api, key, { customerEmail: email.toUpperCase(), channel: 'email' });
      const messages = await outboxFor(result.body.data.requestId);
      expect(messages).toMatchObject([{ channel: 'email', to: email, status: 'accepted' }]);
      expect(messages[0]!.subject).toContain('Corner Shop');
      expect(messages[0]!.body).toContain(result.body.data.reviewLink);
    });

    it('both sends an SMS and an email', async () => {
      const result = await sendOk(api, key, bothChannels());
      expect(result.body.data.warning).toBeUndefined();
      const messages = await outboxFor(result.body.data.requestId);
      expect(messages.map((m) => m.channel).sort()).toEqual(['email', 'sms']);
    });

    it('link creates a shareable request and sends nothing', async () => {
      const result = await sendOk(api, key, { customerName: 'Bo', channel: 'link' });
      expect(result.body.data).toMatchObject({ status: 'sent', channel: 'link' });
      expect(await outboxFor(result.body.data.requestId)).toEqual([]);
    });
  });

  describe('400: invalid payload or contact details', () => {
    it.each([
      ['sms without a phone', {}, 'customerPhone'],
      ['sms with a phone lacking the +', { customerPhone: '4155552671' }, 'customerPhone'],
      ['an impossible phone number', { customerPhone: '+1 555' }, 'customerPhone'],
      ['email without an address', { channel: 'email' }, 'customerEmail'],
      ['email with a bad address', { channel: 'email', customerEmail: 'not-an-address' }, 'customerEmail'],
      ['both without the email', { channel: 'both', customerPhone: '+14155552671' }, 'customerEmail'],
      ['both without the phone', { channel: 'both', customerEmail: 'a@example.com' }, 'customerPhone'],
      ['an unknown channel', { channel: 'fax', customerPhone: '+14155552671' }, 'channel'],
      ['an unknown field', { channel: 'link', customerAge: 3 }, 'customerAge'],
      ['a name too long', { channel: 'link', customerName: 'x'.repeat(201) }, 'customerName'],
      ['a name of the wrong type', { channel: 'link', customerName: 42 }, 'customerName'],
    ])('%s', async (_name, body, field) => {
      const result = await send(api, key, body);
      const message = expectFailure(result, 'validation_failed');
      expect(result.body.fields?.[field]).toBeTruthy();
      expect(message).toContain(result.body.fields[field]);
    });

    it('a body that is not an object', async () => {
      expectFailure(await send(api, key, []), 'validation_failed');
      // JSON, but not an object or array at the top: the strict parser refuses it as not our JSON.
      for (const body of ['text', 42, null]) expectFailure(await send(api, key, body), 'malformed_json');
    });

    it('malformed JSON', async () => {
      const response = await api.fetch('/api/v1/requests/send', {
        method: 'POST',
        headers: sendHeaders(api, key),
        body: '{"channel": "link",',
      });
      const body = await response.json();
      expectFailure({ status: response.status, headers: response.headers, body }, 'malformed_json');
    });
  });

  describe('content type and size', () => {
    it('415 for a body that is not JSON', async () => {
      for (const type of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=utf-16',
        undefined,
      ]) {
        const headers = sendHeaders(api, key);
        if (type) headers['content-type'] = type;
        else delete headers['content-type'];
        const response = await api.fetch('/api/v1/requests/send', {
          method: 'POST',
          headers,
          body: 'channel=link',
        });
        const body = await response.json();
        expectFailure({ status: response.status, headers: response.headers, body }, 'not_json');
      }
    });

    it(`413 above ${JSON_BODY_LIMIT_BYTES} bytes, and a body at the limit is read`, async () => {
      const padding = (n: number) => JSON.stringify({ channel: 'link', customerName: 'x'.repeat(n) });
      const over = padding(JSON_BODY_LIMIT_BYTES);
      const response = await api.fetch('/api/v1/requests/send', {
        method: 'POST',
        headers: sendHeaders(api, key),
        body: over,
      });
      const body = await response.json();
      expect(
        expectFailure({ status: response.status, headers: response.headers, body }, 'body_too_large'),
      ).toBe(MESSAGES.bodyTooLarge(JSON_BODY_LIMIT_BYTES));
      // Exactly at the limit: parsed, then refused by the schema (the name is too long), not by size.
      const atLimit = padding(JSON_BODY_LIMIT_BYTES - padding(0).length);
      expect(Buffer.byteLength(atLimit)).toBe(JSON_BODY_LIMIT_BYTES);
      const ok = await api.fetch('/api/v1/requests/send', {
        method: 'POST',
        headers: sendHeaders(api, key),
        body: atLimit,
      });
      expect(ok.status).toBe(400);
    });
  });

  describe('the Origin rule on POST', () => {
    it('403 without an Origin header', async () => {
      const response = await api.fetch('/api/v1/requests/send', {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ channel: 'link' }),
      });
      const body = await response.json();
      expectFailure({ status: response.status, headers: response.headers, body }, 'origin_refused');
    });

    it('403 with a foreign Origin, even with a valid key', async () => {
      const result = await send(api, key, { channel: 'link' }, { origin: 'https://evil.example' });
      expectFailure(result, 'origin_refused');
    });

    it('403 with Origin: null', async () => {
      const result = await send(api, key, { channel: 'link' }, { origin: 'null' });
      expectFailure(result, 'origin_refused');
    });

    it('accepts the application host and ALLOWED_ORIGINS; CSRF_EXEMPT_API_KEYS exempts key traffic only', async () => {
      const other = await startTestApi(
        {
          allowedOrigins: ['https://dashboard.example'],
          csrfExemptApiKeys: false,
        },
        { engine },
      );
      const exempt = await startTestApi({ csrfExemptApiKeys: true }, { engine });
      try {
        await other.business('o');
        const k = await other.key('o');
        expect(
          (await send(other, k, { channel: 'link' }, { origin: 'https://dashboard.example' })).status,
        ).toBe(200);
        expect((await send(other, k, { channel: 'link' })).status).toBe(200);

        await exempt.business('e');
        const e = await exempt.key('e');
        const noOrigin = await exempt.fetch('/api/v1/requests/send', {
          method: 'POST',
          headers: { authorization: `Bearer ${e}`, 'content-type': 'application/json' },
          body: JSON.stringify({ channel: 'link' }),
        });
        expect(noOrigin.status).toBe(200);
        // Without a key the exemption does not apply: the Origin rule answers first.
        const anonymous = await exempt.fetch('/api/v1/requests/send', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ channel: 'link' }),
        });
        expect(anonymous.status).toBe(403);
      } finally {
        await other.stop();
        await exempt.stop();
      }
    });
  });

  describe('delivery failures (outbox fault hooks)', () => {
    it('both with a failing SMS: success with a warning naming the SMS', async () => {
      const body = { ...bothChannels(), customerPhone: '+14155550000' };
      const result = await sendOk(api, key, body);
      const data = successEnvelopeSchema(sendResultSchema).parse(result.body).data;
      expect(data.status).toBe('sent');
      expect(data.warning).toMatch(/^SMS: /);
      const messages = await outboxFor(data.requestId);
      expect(messages.find((m) => m.channel === 'sms')).toMatchObject({ status: 'failed' });
      expect(messages.find((m) => m.channel === 'email')).toMatchObject({
        status: 'accepted',
        to: body.customerEmail,
      });
    });

    it('both with a bouncing email: success with a warning naming the email', async () => {
      const result = await sendOk(api, key, bothChannels('fail.example'));
      expect(result.body.data.warning).toMatch(/^Email: /);
    });

    it('every delivery failed: 502 naming each leg, request stored as failed, not counted by the cap', async () => {
      const email = uniqueEmail('fail.example');
      const body = { customerPhone: '+14155550000', customerEmail: email, channel: 'both' };
      const result = await send(api, key, body);
      const message = expectFailure(result, 'delivery_failed');
      expect(message).toContain(ERROR_CODES.delivery_failed.message);
      expect(message).toContain('SMS:');
      expect(message).toContain('Email:');
      const failed = await queryAll(
        api.ctx.store,
        "SELECT status, error FROM requests WHERE customer_email = $1 AND status = 'failed'",
        email,
      );
      expect(failed).toHaveLength(1);
      // A second attempt is not refused by the frequency cap: nothing reached the customer.
      expectFailure(await send(api, key, body), 'delivery_failed');
      // And a single-channel failure is a 502 too.
      expectFailure(await send(api, key, { customerPhone: '+14155550000' }), 'delivery_failed');
    });

    it('are off unless the dev outbox is on: the outbox keeps every message', async () => {
      const quiet = await startTestApi({ devOutbox: false }, { engine });
      try {
        await quiet.business('q');
        const k = await quiet.key('q');
        const result = await sendOk(quiet, k, {
          customerPhone: '+14155550000',
          customerEmail: uniqueEmail('fail.example'),
          channel: 'both',
        });
        expect(result.body.data.warning).toBeUndefined();
      } finally {
        await quiet.stop();
      }
    });
  });

  describe('frequency cap and opt-out', () => {
    it('a second request to the same phone within the cap is refused; another business may still send', async () => {
      const phone = uniquePhone();
      expect((await send(api, key, { customerPhone: phone })).status).toBe(200);
      const again = await send(api, key, { customerPhone: phone.replace('+1', '+1 ') });
      expect(expectFailure(again, 'frequency_capped')).toBe(
        MESSAGES.frequencyCap(api.ctx.config.frequencyCapDays),
      );
      // The same contact by email-and-phone is capped through its phone.
      expectFailure(
        await send(api, key, { customerPhone: phone, customerEmail: uniqueEmail(), channel: 'both' }),
        'frequency_capped',
      );
      // A link does not message anyone: not capped.
      expect((await send(api, key, { customerPhone: phone, channel: 'link' })).status).toBe(200);

      await api.business('neighbour');
      expect((await send(api, await api.key('neighbour'), { customerPhone: phone })).status).toBe(200);
    });

    it('the cap is per contact and lifts after FREQUENCY_CAP_DAYS', async () => {
      const email = uniqueEmail();
      expect((await send(api, key, { customerEmail: email, channel: 'email' })).status).toBe(200);
      expectFailure(await send(api, key, { customerEmail: email, channel: 'email' }), 'frequency_capped');
      const days = api.ctx.config.frequencyCapDays;
      api.clock.now += days * 86_400_000 + 1000;
      try {
        expect((await send(api, key, { customerEmail: email, channel: 'email' })).status).toBe(200);
      } finally {
        api.clock.now -= days * 86_400_000 + 1000;
      }
    });

    it('FREQUENCY_CAP_DAYS=0 disables the cap', async () => {
      const uncapped = await startTestApi({ frequencyCapDays: 0 }, { engine });
      try {
        await uncapped.business('u');
        const k = await uncapped.key('u');
        const phone = uniquePhone();
        for (let i = 0; i < 3; i++)
          expect((await send(uncapped, k, { customerPhone: phone })).status).toBe(200);
      } finally {
        await uncapped.stop();
      }
    });

    it('an opted-out contact is refused, on every channel that would reach it', async () => {
      const phone = uniquePhone();
      const email = uniqueEmail();
      const first = await sendOk(api, key, { customerPhone: phone, customerEmail: email, channel: 'both' });
      const token = first.body.data.reviewLink.split('/r/')[1];
      await optOut(api.ctx.store, token, api.clock.now);
      api.clock.now += 400 * 86_400_000; // long after any cap
      // A refusal keeps nothing: no request, no delivery record, no roll-up count.
      const db = await api.ctx.tracker.db();
      const kept = () =>
        db.get(`SELECT (SELECT count(*) FROM requests) AS requests,
          (SELECT count(*) FROM delivery_requests) AS deliveries,
          (SELECT coalesce(sum(total), 0) FROM request_daily) AS counted`);
      const before = await kept();
      try {
        expectFailure(await send(api, key, { customerPhone: phone }), 'opted_out');
        expectFailure(await send(api, key, { customerEmail: email, channel: 'email' }), 'opted_out');
        expect(await kept()).toEqual(before);
      } finally {
        api.clock.now -= 400 * 86_400_000;
      }
    });
  });

  describe('sending allowance → 403', () => {
    it('refuses sends beyond the monthly allowance; links and failed sends do not use it', async () => {
      const limited = await startTestApi({ monthlySendAllowance: 2 }, { engine });
      try {
        await limited.business('l');
        const k = await limited.key('l');
        expect((await send(limited, k, { channel: 'link' })).status).toBe(200);
        expectFailure(await send(limited, k, { customerPhone: '+14155550000' }), 'delivery_failed');
        expect((await send(limited, k, { customerPhone: uniquePhone() })).status).toBe(200);
        expect((await send(limited, k, { customerEmail: uniqueEmail(), channel: 'email' })).status).toBe(200);
        const refused = await send(limited, k, { customerPhone: uniquePhone() });
        expect(expectFailure(refused, 'allowance_exceeded')).toBe(MESSAGES.allowanceExceeded(2));
        // Links still work: they send nothing.
        expect((await send(limited, k, { channel: 'link' })).status).toBe(200);
        // A new calendar month starts a new allowance.
        const now = new Date(limited.clock.now);
        limited.clock.now = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 0, 0, 1);
        expect((await send(limited, k, { customerPhone: uniquePhone() })).status).toBe(200);
      } finally {
        await limited.stop();
      }
    });
  });
});
