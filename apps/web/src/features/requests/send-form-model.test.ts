import type { SendHistoryEntry } from '@review-desk/shared/bff';
import type { ErrorCode } from '@review-desk/shared/errors';
import { failureInfo } from '@review-desk/shared/errors';
import { requiredFor, sendRequestSchema } from '@review-desk/shared/send';
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../lib/api-error.ts';
import {
  buildSendBody,
  classifySendFailure,
  composePhone,
  initialSendValues,
  recentSends,
  type SendFormValues,
  validateSend,
} from './send-form-model.ts';

const values = (change: Partial<SendFormValues>): SendFormValues => ({
  ...initialSendValues('US'),
  ...change,
});

/** What the server would answer for the same body: the form must say the same thing. */
function serverMessages(v: SendFormValues): Record<string, string> {
  const parsed = sendRequestSchema.safeParse(buildSendBody(v));
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
}

describe('phone number from country + what was typed', () => {
  it('normalises a national number with the chosen country to E.164', () => {
    expect(composePhone('US', '(415) 555-2671')).toBe('+14155552671');
    expect(composePhone('GB', '020 7946 0958')).toBe('+442079460958');
    expect(composePhone('DE', '030 123456')).toBe('+4930123456');
  });
  it('keeps a number typed with its own country code', () => {
    expect(composePhone('US', '+44 20 7946 0958')).toBe('+44 20 7946 0958');
  });
  it('leaves nothing for nothing', () => {
    expect(composePhone('US', '   ')).toBe('');
  });
});

describe('form rules per channel (the contacts each channel needs), with the server’s own messages', () => {
  it('sms requires a phone number', () => {
    const v = values({ channel: 'sms' });
    const result = validateSend(v);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.customerPhone).toBe('Phone number is required to send by SMS');
    expect(requiredFor('customerPhone', 'sms')).toBe('Phone number is required to send by SMS');
    expect(result.errors.customerEmail).toBeUndefined();
    expect(result.errors).toEqual(serverMessages(v));
  });

  it('sms rejects a number that is not valid for its country, as the server does', () => {
    const v = values({ channel: 'sms', phoneNumber: '555' });
    const result = validateSend(v);
    expect(!result.ok && result.errors.customerPhone).toMatch(/^Phone number is not valid/);
    expect(!result.ok && result.errors).toEqual(serverMessages(v));
  });

  it('email requires a valid address and ignores the phone', () => {
    const missing = validateSend(values({ channel: 'email', phoneNumber: 'garbage' }));
    expect(!missing.ok && missing.errors).toEqual({
      customerEmail: 'Customer email is required to send by email',
    });
    const invalid = values({ channel: 'email', customerEmail: 'not-an-email' });
    expect(!validateSend(invalid).ok && (validateSend(invalid) as { errors: object }).errors).toEqual(
      serverMessages(invalid),
    );
  });

  it('both requires both', () => {
    const result = validateSend(values({ channel: 'both' }));
    expect(!result.ok && Object.keys(result.errors).sort()).toEqual(['customerEmail', 'customerPhone']);
  });

  it('link needs no contact and sends none, even if fields were filled earlier', () => {
    const result = validateSend(
      values({ channel: 'link', phoneNumber: '4155552671', customerEmail: 'a@b.example' }),
    );
    expect(result).toEqual({ ok: true, body: { channel: 'link' } });
  });

  it('normalises what it sends: E.164 phone, lower-case email, trimmed name', () => {
    const result = validateSend(
      values({
        channel: 'both',
        customerName: '  Ana  ',
        phoneNumber: '415 555 2671',
        customerEmail: ' Ana@Example.COM ',
      }),
    );
    expect(result).toEqual({
      ok: true,
      body: {
        channel: 'both',
        customerName: 'Ana',
        customerPhone: '+14155552671',
        customerEmail: 'ana@example.com',
      },
    });
  });
});

function entry(change: Partial<SendHistoryEntry>): SendHistoryEntry {
  return {
    id: 's1',
    createdAt: new Date().toISOString(),
    finishedAt: null,
    sentBy: 'staff@example.com',
    channel: 'sms',
    customerName: null,
    contact: '+1 ••• ••• 2671',
    outcome: 'sent',
    httpStatus: 200,
    requestId: 'req_1',
    status: 'sent',
    reviewLink: null,
    warning: null,
    error: null,
    ...change,
  };
}

describe('frequency-cap window', () => {
  const now = Date.parse('2025-06-30T12:00:00Z');
  it('finds sends inside the window, newest first, not failed ones', () => {
    const found = recentSends(
      [
        entry({ id: 'old', createdAt: '2025-05-01T00:00:00Z' }),
        entry({ id: 'failed', createdAt: '2025-06-29T00:00:00Z', outcome: 'failed' }),
        entry({ id: 'a', createdAt: '2025-06-20T00:00:00Z' }),
        entry({ id: 'unknown', createdAt: '2025-06-28T00:00:00Z', outcome: 'unknown' }),
      ],
      30,
      now,
    );
    expect(found.map((e) => e.id)).toEqual(['unknown', 'a']);
  });
});

describe('what a failed send means', () => {
  const api = (status: number, code: ErrorCode | null = null) =>
    new ApiError(
      {
        ok: false,
        status,
        error: 'x',
        code,
        retryAfterSeconds: null,
        malformed: false,
        headers: new Headers(),
      },
      false,
      failureInfo({ status, code }),
    );
  it('is unknown when a request may have gone out', () => {
    expect(classifySendFailure(new NetworkError(new TypeError()))).toBe('unknown');
    expect(classifySendFailure(api(409))).toBe('unknown');
    expect(classifySendFailure(api(504))).toBe('unknown');
    expect(classifySendFailure(api(502))).toBe('unknown');
    expect(classifySendFailure(api(200))).toBe('unknown');
    expect(classifySendFailure(api(409, 'outcome_unknown'))).toBe('unknown');
    expect(classifySendFailure(api(409, 'idempotency_in_flight'))).toBe('unknown');
    expect(classifySendFailure(api(504, 'upstream_timeout'))).toBe('unknown');
    expect(classifySendFailure(api(502, 'upstream_connection_lost'))).toBe('unknown');
    expect(classifySendFailure(api(502, 'upstream_unreadable'))).toBe('unknown');
    expect(classifySendFailure(api(500, 'internal'))).toBe('unknown');
  });
  it('is a refusal when the service said no', () => {
    for (const status of [400, 401, 403, 422, 429]) expect(classifySendFailure(api(status))).toBe('refused');
    // Every delivery failed: a 502, but known not sent — the user fixes the contact and retries.
    expect(classifySendFailure(api(502, 'delivery_failed'))).toBe('refused');
    expect(classifySendFailure(api(502, 'upstream_unreachable'))).toBe('refused');
    expect(classifySendFailure(api(503, 'unavailable'))).toBe('refused');
    expect(classifySendFailure(api(400, 'frequency_capped'))).toBe('refused');
  });
});
