import { AppError } from '@review-desk/server/errors';
import { idempotencyKeySchema } from '@review-desk/shared';
import { describe, expect, it } from 'vitest';
import type { DeliveryResult } from '../proxy/send.ts';
import { settleSend } from '../proxy/send-outcome.ts';
import { backoffMs, judgeDelivery, rowKey, waitAfter429 } from './decisions.ts';

// What each answer means for a list send's row: the table of cases.

const KEY = 'rk_test_key_0123456789';
const NOW = Date.parse('2026-11-25T12:00:00Z');

function reply(status: number, body: unknown, headers: Record<string, string> = {}): DeliveryResult {
  return {
    kind: 'settled',
    entry: 'e1',
    settled: settleSend(
      {
        kind: 'reply',
        status,
        headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
        body: Buffer.from(JSON.stringify(body)),
      },
      KEY,
    ),
  };
}
const failure = (code: string, error: string) => ({ success: false, error, code });
const created = (extra: Record<string, unknown> = {}) => ({
  success: true,
  data: { requestId: 'req_1', status: 'sent', channel: 'email', reviewLink: 'https://r.example/x', ...extra },
});

describe('judgeDelivery', () => {
  it('a created request is sent (a warning kept in words), with its request id', () => {
    expect(judgeDelivery(reply(201, created()), 1, NOW)).toEqual({
      kind: 'row',
      result: { outcome: 'sent', requestId: 'req_1', detail: null },
    });
    expect(judgeDelivery(reply(201, created({ warning: 'SMS failed' })), 1, NOW)).toMatchObject({
      kind: 'row',
      result: { outcome: 'warning', detail: 'SMS failed' },
    });
  });

  it('a refusal of the row keeps the upstream’s code and words', () => {
    expect(
      judgeDelivery(
        reply(400, failure('frequency_capped', 'This customer was sent a review request recently.')),
        1,
        NOW,
      ),
    ).toEqual({
      kind: 'row',
      result: {
        outcome: 'refused',
        code: 'frequency_capped',
        detail: 'This customer was sent a review request recently.',
      },
    });
  });

  it('429 waits as long as Retry-After says, then the same row is tried again', () => {
    const verdict = judgeDelivery(
      reply(429, failure('rate_limited', 'Request limit reached.'), { 'retry-after': '7' }),
      1,
      NOW,
    );
    expect(verdict).toMatchObject({ kind: 'wait', down: false });
    expect((verdict as { ms: number }).ms).toBeGreaterThanOrEqual(7_000);
  });

  it('401 and 403 pause the job: every other row would be refused the same way', () => {
    expect(judgeDelivery(reply(401, failure('key_invalid', 'bad key')), 1, NOW).kind).toBe('pause');
    const allowance = judgeDelivery(
      reply(403, failure('allowance_exceeded', 'Sending allowance exceeded for this calendar month.')),
      1,
      NOW,
    );
    expect(allowance).toMatchObject({ kind: 'pause' });
    expect((allowance as { reason: string }).reason).toContain('allowance exceeded');
  });

  it('a definite upstream failure waits with back-off and counts as the upstream being down', () => {
    const verdict = judgeDelivery(reply(503, failure('unavailable', 'down')), 3, NOW, () => 1);
    expect(verdict).toMatchObject({ kind: 'wait', down: true, ms: 8_000 });
    const unreachable: DeliveryResult = {
      kind: 'settled',
      entry: 'e',
      settled: settleSend({ kind: 'error', reason: 'unreachable', error: new Error('x') }, KEY),
    };
    expect(judgeDelivery(unreachable, 1, NOW)).toMatchObject({ kind: 'wait', down: true });
  });

  it('a send that may have gone out is unknown, never waited on and tried again', () => {
    const timeout: DeliveryResult = {
      kind: 'settled',
      entry: 'e',
      settled: settleSend({ kind: 'error', reason: 'timeout', error: new Error('x') }, KEY),
    };
    expect(judgeDelivery(timeout, 1, NOW)).toMatchObject({ kind: 'row', result: { outcome: 'unknown' } });
    const held: DeliveryResult = { kind: 'refused', error: new AppError('idempotency_in_flight') };
    expect(judgeDelivery(held, 1, NOW)).toMatchObject({
      kind: 'row',
      result: { outcome: 'unknown', code: 'idempotency_in_flight' },
    });
  });

  it('a key the journal already finished is its recorded outcome, not a second send', () => {
    const body = Buffer.from(JSON.stringify(created()));
    const replay: DeliveryResult = {
      kind: 'replay',
      status: 201,
      type: 'application/json',
      body,
      outcome: 'sent',
    };
    expect(judgeDelivery(replay, 1, NOW)).toEqual({
      kind: 'row',
      result: { outcome: 'sent', requestId: 'req_1', detail: null },
    });
  });
});

describe('waiting', () => {
  it('reads Retry-After as seconds or a date, else RateLimit-Reset, else backs off with jitter', () => {
    expect(waitAfter429({ 'retry-after': '2' }, 1, NOW)).toBe(2_050);
    expect(waitAfter429({ 'retry-after': new Date(NOW + 5_000).toUTCString() }, 1, NOW)).toBe(5_050);
    expect(waitAfter429({ 'ratelimit-reset': '3' }, 1, NOW)).toBe(3_050);
    expect(waitAfter429({}, 2, NOW, () => 0.5)).toBe(2_000);
    expect(backoffMs(20, () => 1)).toBe(60_000);
    expect(backoffMs(1, () => 0)).toBe(500);
  });
});

describe('rowKey', () => {
  it('is a UUID per job, row and generation, the same every time', () => {
    const key = rowKey('job-1', 0, 0);
    expect(idempotencyKeySchema.safeParse(key).success).toBe(true);
    expect(rowKey('job-1', 0, 0)).toBe(key);
    const others = new Set([key, rowKey('job-1', 1, 0), rowKey('job-2', 0, 0), rowKey('job-1', 0, 1)]);
    expect(others.size).toBe(4);
  });
});
