import type { IncomingHttpHeaders } from 'node:http';
import { ENDPOINTS } from '@review-desk/shared';
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../journal/journal.ts';
import { PROXY_MESSAGES } from './messages.ts';
import { answerExisting, settleSend } from './send-outcome.ts';
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

const ROWS: Row[] = [
  {
    answer: '200, the result',
    result: reply(200, { success: true, data: RESULT }),
    outcome: 'sent',
    released: false,
    status: 200,
    code: null,
    error: null,
  },
  {
    answer: '200, the result with a warning',
    result: reply(200, { success: true, data: { ...RESULT, warning: 'SMS failed.' } }),
    outcome: 'warning',
    released: false,
    status: 200,
    code: null,
    error: null,
  },
  {
    answer: '200, an envelope without the result',
    result: reply(200, { success: true, data: { requestId: 'req_1' } }),
    outcome: 'unknown',
    released: false,
    status: 502,
    code: 'upstream_unreadable',
    error: PROXY_MESSAGES.sendUnreadable,
  },
  {
    answer: '200, an HTML page',
    result: html(200),
    outcome: 'unknown',
    released: false,
    status: 502,
    code: 'upstream_unreadable',
    error: PROXY_MESSAGES.sendUnreadable,
  },
  {
    answer: '200, a body holding the key',
    result: reply(200, { success: true, data: { ...RESULT, echo: KEY } }),
    outcome: 'unknown',
    released: false,
    status: 502,
    code: 'upstream_unreadable',
    error: PROXY_MESSAGES.sendUnreadable,
  },
  {
    answer: '400, the service’s refusal',
    result: reply(400, { success: false, error: 'customerPhone is required', code: 'validation_failed' }),
    outcome: 'failed',
    released: true,
    status: 400,
    code: 'validation_failed',
    error: 'customerPhone is required',
  },
  {
    answer: '429, the service’s refusal, with Retry-After',
    result: reply(
      429,
      { success: false, error: 'Too many requests.', code: 'rate_limited' },
      { 'retry-after': '7', 'set-cookie': ['x=1'] },
    ),
    outcome: 'failed',
    released: true,
    status: 429,
    code: 'rate_limited',
    error: 'Too many requests.',
    headers: { 'content-type': JSON_TYPE, 'retry-after': '7' },
  },
  {
    answer: '429, unreadable',
    result: html(429),
    outcome: 'failed',
    released: true,
    status: 429,
    code: 'rate_limited',
    error: PROXY_MESSAGES.rateLimited,
  },
  {
    answer: '401, the key refused',
    result: reply(401, { success: false, error: 'API key revoked.', code: 'key_invalid' }),
    outcome: 'failed',
    released: true,
    status: 401,
    code: 'upstream_key_refused',
    error: PROXY_MESSAGES.keyRefused,
  },
  {
    answer: '403, a missing scope',
    result: reply(403, {
      success: false,
      error: 'This API key lacks the review_requests:write scope.',
      code: 'scope_missing',
    }),
    outcome: 'failed',
    released: true,
    status: 403,
    code: 'upstream_scope_missing',
    error: PROXY_MESSAGES.keyLacksScope(ENDPOINTS.send.scope),
  },
  {
    answer: '502, the service’s own “every delivery failed”',
    result: reply(502, {
      success: false,
      error: 'Every delivery failed: SMS refused.',
      code: 'delivery_failed',
    }),
    outcome: 'failed',
    released: true,
    status: 502,
    code: 'delivery_failed',
    error: 'Every delivery failed: SMS refused.',
  },
  {
    // `internal` may come after a delivery: nobody can say whether the request went out.
    answer: '500, the service’s envelope',
    result: reply(500, { success: false, error: 'Internal server error.', code: 'internal' }),
    outcome: 'unknown',
    released: false,
    status: 500,
    code: 'internal',
    error: 'Internal server error.',
  },
  {
    answer: '403, another deployment’s refusal without a code',
    result: reply(403, { success: false, error: 'This API key lacks the review_requests:write scope.' }),
    outcome: 'failed',
    released: true,
    status: 403,
    code: 'upstream_refused',
    error: PROXY_MESSAGES.refused(
      ENDPOINTS.send.scope,
      'This API key lacks the review_requests:write scope.',
    ),
  },
  {
    answer: '500, another deployment’s envelope without a code',
    result: reply(500, { success: false, error: 'Internal server error.' }),
    outcome: 'unknown',
    released: false,
    status: 500,
    code: null,
    error: 'Internal server error.',
  },
  {
    answer: '503, another deployment’s envelope without a code',
    result: reply(503, { success: false, error: 'Busy.' }),
    outcome: 'failed',
    released: true,
    status: 503,
    code: null,
    error: 'Busy.',
  },
  // A gateway's page: the request may have reached the service behind it.
  {
    answer: '502, a gateway’s HTML page',
    result: html(502),
    outcome: 'unknown',
    released: false,
    status: 502,
    code: 'upstream_unreadable',
    error: PROXY_MESSAGES.sendUnreadable,
  },
  {
    answer: '504, a gateway’s HTML page',
    result: html(504),
    outcome: 'unknown',
    released: false,
    status: 502,
    code: 'upstream_unreadable',
    error: PROXY_MESSAGES.sendUnreadable,
  },
  {
    answer: '503, unreadable',
    result: html(503),
    outcome: 'failed',
    released: true,
    status: 503,
    code: 'unavailable',
    error: PROXY_MESSAGES.unavailable(503),
  },
  {
    answer: '302, a redirect',
    result: html(302),
    outcome: 'failed',
    released: true,
    status: 502,
    code: 'upstream_unreadable',
    error: PROXY_MESSAGES.unreadable,
  },
  {
    answer: 'no connection',
    result: failure('unreachable'),
    outcome: 'failed',
    released: true,
    status: 502,
    code: 'upstream_unreachable',
    error: PROXY_MESSAGES.sendUnreachable,
  },
  {
    answer: 'no answer in time',
    result: failure('timeout'),
    outcome: 'unknown',
    released: false,
    status: 504,
    code: 'upstream_timeout',
    error: PROXY_MESSAGES.sendTimeout,
  },
  {
    answer: 'connection lost after the request left',
    result: failure('connection_lost'),
    outcome: 'unknown',
    released: false,
    status: 502,
    code: 'upstream_connection_lost',
    error: PROXY_MESSAGES.sendConnectionLost,
  },
  {
    answer: 'an answer too large to read',
    result: failure('too_large'),
    outcome: 'unknown',
    released: false,
    status: 502,
    code: 'upstream_unreadable',
    error: PROXY_MESSAGES.sendUnreadable,
  },
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

describe('what a key already in the journal means for a new attempt', () => {
  const NOW = 1_000_000;
  const STALE_AFTER = 10_000;
  const entry = (over: Partial<JournalEntry>): JournalEntry => ({
    id: 'e1',
    fingerprint: 'print',
    outcome: 'sent',
    httpStatus: 200,
    responseType: JSON_TYPE,
    responseBody: Buffer.from('{"success":true}'),
    createdAt: NOW - 1_000,
    ...over,
  });
  const cases: [string, JournalEntry, string, unknown][] = [
    [
      'another intent',
      entry({ fingerprint: 'other' }),
      'print',
      { code: 'idempotency_mismatch', metric: 'key_reused' },
    ],
    [
      'still in flight',
      entry({ outcome: 'in_flight', httpStatus: null, responseBody: null }),
      'print',
      { code: 'idempotency_in_flight', metric: 'in_flight_conflict', message: PROXY_MESSAGES.inFlight },
    ],
    [
      'in flight past its deadline',
      entry({ outcome: 'in_flight', httpStatus: null, responseBody: null, createdAt: NOW - STALE_AFTER - 1 }),
      'print',
      {
        code: 'outcome_unknown',
        metric: 'unknown_conflict',
        message: PROXY_MESSAGES.outcomeUnknown,
        orphanStale: true,
      },
    ],
    [
      'unknown',
      entry({ outcome: 'unknown', httpStatus: 504, responseBody: null }),
      'print',
      { code: 'outcome_unknown', metric: 'unknown_conflict', message: PROXY_MESSAGES.outcomeUnknown },
    ],
    [
      'sent, its answer forgotten',
      entry({ responseBody: null }),
      'print',
      { code: 'outcome_unknown', metric: 'unknown_conflict' },
    ],
    ['sent', entry({}), 'print', { replay: 200 }],
    ['warning', entry({ outcome: 'warning' }), 'print', { replay: 200 }],
  ];
  it.each(cases)('%s', (_name, existing, fingerprint, expected) => {
    const answer = answerExisting(existing, fingerprint, NOW, STALE_AFTER);
    if (answer.kind === 'replay') {
      expect({ replay: answer.status }).toEqual(expected);
      expect(answer.body).toEqual(existing.responseBody);
      return;
    }
    const seen: Record<string, unknown> = { code: answer.error.code, metric: answer.metric };
    const wanted = expected as Record<string, unknown>;
    if ('message' in wanted) seen.message = answer.error.message;
    if (answer.orphanStale) seen.orphanStale = true;
    expect(seen).toEqual(wanted);
  });
});
