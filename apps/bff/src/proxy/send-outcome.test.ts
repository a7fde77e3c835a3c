import type { IncomingHttpHeaders } from 'node:http';
import { ENDPOINTS } from '@review-desk/shared';
import { describe, expect, it } from 'vitest';
import { PROXY_MESSAGES } from './messages.ts';
import { settleSend } from './send-outcome.ts';
import type { PostResult } from './upstream-post.ts';

// What each upstream answer means for the journal and for the browser: one row per case.

const KEY = 'rd_live_test-key-0123456789';
const JSON_TYPE = 'application/json; charset=utf-8';
const RESULT = { requestId: 'req_1', status: 'sent', channel: 'sms', reviewLink: 'https://r/req_1' };

const reply = (status: number, body: unknown, headers: IncomingHttpHeaders = {}): PostResult => ({
  kind: 'reply',
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
});
const html = (status: number): PostResult => ({
  kind: 'reply',
  status,
  headers: { 'content-type': 'text/html' },
  body: Buffer.from('<html><body>Bad gateway</body></html>'),
});
const failure = (reason: 'timeout' | 'unreachable' | 'connection_lost' | 'too_large'): PostResult => ({
  kind: 'error',
  reason,
  error: new Error(reason),
});

const row = (
  answer: string,
  result: PostResult,
  outcome: string,
  released: boolean,
  status: number,
  code: string | null,
  error: string | null,
  headers?: Record<string, string>,
): Row => ({ answer, result, outcome, released, status, code, error, ...(headers ? { headers } : {}) });

type Row = {
  answer: string;
  result: PostResult;
  outcome: string;
  /** The key is released: a retry with it goes upstream again. */
  released: boolean;
  /** What the browser gets: status, the envelope's code and error (null: the upstream's success body). */
  status: number;
  code: string | null;
  error: string | null;
  headers?: Record<string, string>;
};

/** An answer that cannot be read: nobody can say whether the request went out. */
const UNREADABLE = ['unknown', false, 502, 'upstream_unreadable', PROXY_MESSAGES.sendUnreadable] as const;

const ROWS: Row[] = [
  row('200, the result', reply(200, { success: true, data: RESULT }), 'sent', false, 200, null, null),
  row(
    '200, the result with a warning',
    reply(200, { success: true, data: { ...RESULT, warning: 'SMS failed.' } }),
    'warning',
    false,
    200,
    null,
    null,
  ),
  row(
    '200, an envelope without the result',
    reply(200, { success: true, data: { requestId: 'req_1' } }),
    ...UNREADABLE,
  ),
  row('200, an HTML page', html(200), ...UNREADABLE),
  row(
    '200, a body holding the key',
    reply(200, { success: true, data: { ...RESULT, echo: KEY } }),
    ...UNREADABLE,
  ),
  row(
    '400, the service’s refusal',
    reply(400, { success: false, error: 'Phone number is required', code: 'validation_failed' }),
    'failed',
    true,
    400,
    'validation_failed',
    'Phone number is required',
  ),
  row(
    '429, the service’s refusal, with Retry-After',
    reply(
      429,
      { success: false, error: 'Too many requests.', code: 'rate_limited' },
      { 'retry-after': '7', 'set-cookie': ['x=1'] },
    ),
    'failed',
    true,
    429,
    'rate_limited',
    'Too many requests.',
    { 'content-type': JSON_TYPE, 'retry-after': '7' },
  ),
  row('429, unreadable', html(429), 'failed', true, 429, 'rate_limited', PROXY_MESSAGES.rateLimited),
  row(
    '401, the key refused',
    reply(401, { success: false, error: 'API key revoked.', code: 'key_invalid' }),
    'failed',
    true,
    401,
    'upstream_key_refused',
    PROXY_MESSAGES.keyRefused,
  ),
  row(
    '403, a missing scope',
    reply(403, {
      success: false,
      error: 'This API key lacks the review_requests:write scope.',
      code: 'scope_missing',
    }),
    'failed',
    true,
    403,
    'upstream_scope_missing',
    PROXY_MESSAGES.keyLacksScope(ENDPOINTS.send.scope),
  ),
  row(
    '502, the service’s own “every delivery failed”',
    reply(502, { success: false, error: 'Every delivery failed: SMS refused.', code: 'delivery_failed' }),
    'failed',
    true,
    502,
    'delivery_failed',
    'Every delivery failed: SMS refused.',
  ),
  // `internal` may come after a delivery: nobody can say whether the request went out.
  row(
    '500, the service’s envelope',
    reply(500, { success: false, error: 'Internal server error.', code: 'internal' }),
    'unknown',
    false,
    500,
    'internal',
    'Internal server error.',
  ),
  row(
    '403, another deployment’s refusal without a code',
    reply(403, { success: false, error: 'This API key lacks the review_requests:write scope.' }),
    'failed',
    true,
    403,
    'upstream_refused',
    PROXY_MESSAGES.refused(ENDPOINTS.send.scope, 'This API key lacks the review_requests:write scope.'),
  ),
  row(
    '500, another deployment’s envelope without a code',
    reply(500, { success: false, error: 'Internal server error.' }),
    'unknown',
    false,
    500,
    null,
    'Internal server error.',
  ),
  row(
    '503, another deployment’s envelope without a code',
    reply(503, { success: false, error: 'Busy.' }),
    'failed',
    true,
    503,
    null,
    'Busy.',
  ),
  // A gateway's page: the request may have reached the service behind it.
  row('502, a gateway’s HTML page', html(502), ...UNREADABLE),
  row('504, a gateway’s HTML page', html(504), ...UNREADABLE),
  row('503, unreadable', html(503), 'failed', true, 503, 'unavailable', PROXY_MESSAGES.unavailable(503)),
  row('302, a redirect', html(302), 'failed', true, 502, 'upstream_unreadable', PROXY_MESSAGES.unreadable),
  row(
    'no connection',
    failure('unreachable'),
    'failed',
    true,
    502,
    'upstream_unreachable',
    PROXY_MESSAGES.sendUnreachable,
  ),
  row(
    'no answer in time',
    failure('timeout'),
    'unknown',
    false,
    504,
    'upstream_timeout',
    PROXY_MESSAGES.sendTimeout,
  ),
  row(
    'connection lost after the request left',
    failure('connection_lost'),
    'unknown',
    false,
    502,
    'upstream_connection_lost',
    PROXY_MESSAGES.sendConnectionLost,
  ),
  row('an answer too large to read', failure('too_large'), ...UNREADABLE),
];

describe('what an upstream answer means for the journal', () => {
  it.each(ROWS)('$answer → $outcome', (row) => {
    const { finish, answer, headers } = settleSend(row.result, KEY);
    const body = JSON.parse(answer.body.toString('utf8'));
    expect({
      outcome: finish.outcome,
      released: finish.releaseKey === true,
      status: answer.status,
      code: body.success === false ? (body.code ?? null) : null,
      error: body.success === false ? body.error : null,
    }).toEqual({
      outcome: row.outcome,
      released: row.released,
      status: row.status,
      code: row.code,
      error: row.error,
    });
    if (row.headers) expect(headers).toEqual(row.headers);
    expect(answer.body.includes(KEY)).toBe(false);
    // Only an accepted send is replayed, and it replays exactly what the browser got.
    if (finish.outcome === 'sent' || finish.outcome === 'warning') {
      expect(finish.response?.body).toEqual(answer.body);
      expect(finish).toMatchObject({ requestId: 'req_1', reviewLink: 'https://r/req_1', httpStatus: 200 });
    } else {
      expect(finish.response ?? null).toBeNull();
      expect(finish.error).toBeTruthy();
    }
  });
});
