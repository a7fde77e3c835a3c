import { describe, expect, it } from 'vitest';
import { codedErrorEnvelopeSchema, errorEnvelopeSchema, fail } from './envelope.ts';
import { ERROR_CODE_NAMES, ERROR_CODES, failureInfo, isErrorCode, sendMayHaveGoneOut } from './errors.ts';

describe('the error table', () => {
  it('has snake_case codes, a 4xx/5xx status, a message and an action for each', () => {
    for (const code of ERROR_CODE_NAMES) {
      const info = ERROR_CODES[code];
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(info.status, code).toBeGreaterThanOrEqual(400);
      expect(info.status, code).toBeLessThan(600);
      expect(info.message.length, code).toBeGreaterThan(0);
      expect(info.action.length, code).toBeGreaterThan(0);
    }
  });

  it('is what our envelope schema accepts; clients still read envelopes without a code', () => {
    expect(codedErrorEnvelopeSchema.safeParse(fail('not_found')).success).toBe(true);
    expect(codedErrorEnvelopeSchema.safeParse({ success: false, error: 'x', code: 'made_up' }).success).toBe(
      false,
    );
    expect(codedErrorEnvelopeSchema.safeParse({ success: false, error: 'x' }).success).toBe(false);
    expect(errorEnvelopeSchema.safeParse({ success: false, error: 'x' }).success).toBe(true);
    expect(errorEnvelopeSchema.safeParse({ success: false, error: 'x', code: 'made_up' }).success).toBe(true);
    expect(isErrorCode('made_up')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
  });
});

describe('what a failure means', () => {
  it('comes from the code when there is one of ours, from the status otherwise', () => {
    expect(failureInfo({ status: 502, code: 'delivery_failed' }).meaning).toBe(
      ERROR_CODES.delivery_failed.message,
    );
    expect(failureInfo({ status: 429 }).retryRead).toBe(true);
    expect(failureInfo({ status: 403, code: 'made_up' }).retryRead).toBe(false);
    expect(failureInfo({ status: 599 }).retryRead).toBe(true);
  });

  it('says whether a failed send may have gone out', () => {
    expect(sendMayHaveGoneOut({ status: 502, code: 'delivery_failed' })).toBe(false);
    expect(sendMayHaveGoneOut({ status: 502, code: 'upstream_unreachable' })).toBe(false);
    expect(sendMayHaveGoneOut({ status: 502, code: 'upstream_connection_lost' })).toBe(true);
    expect(sendMayHaveGoneOut({ status: 504, code: 'upstream_timeout' })).toBe(true);
    expect(sendMayHaveGoneOut({ status: 409, code: 'outcome_unknown' })).toBe(true);
    expect(sendMayHaveGoneOut({ status: 500, code: 'internal' })).toBe(true);
    expect(sendMayHaveGoneOut({ status: 403, code: 'allowance_exceeded' })).toBe(false);
    // No code of ours: the status decides.
    expect(sendMayHaveGoneOut({ status: 502 })).toBe(true);
    expect(sendMayHaveGoneOut({ status: 503 })).toBe(false);
    expect(sendMayHaveGoneOut({ status: 400, code: null })).toBe(false);
  });
});
