import type { ServerResponse } from 'node:http';
import { fail } from '@review-desk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Behaviour, behaviours, type FakeUpstream, json } from '../../../test/support/fault-upstream.ts';
import { replyLog } from '../../../test/support/reply-log.ts';
import { addUser, deadUpstreamUrl, startBff, type TestBff, useBffOnFakeUpstream } from './support/bff.ts';
import { type DashboardClient, raw } from './support/client.ts';
import { SMS, STAFF } from './support/fixtures.ts';

// The key never reaches a browser: not in a body, not in a header, on any route or error path,
// and not in the logs. Every reply below is collected and scanned for the key's bytes.

let upstream: FakeUpstream;
let bff: TestBff;
let down: TestBff;
let owner: DashboardClient;
let staff: DashboardClient;

const replies = replyLog();
const record = (
  label: string,
  reply: { status: number; headers: Headers | Record<string, unknown>; text: string },
) => replies.record(label, reply.status, reply.headers, reply.text);

useBffOnFakeUpstream((stack) => ({ upstream, bff, owner } = stack), {
  LOG_LEVEL: 'trace',
  UPSTREAM_TIMEOUT_MS: '800',
});

beforeAll(async () => {
  down = await startBff(await deadUpstreamUrl(), { LOG_LEVEL: 'trace' });
  staff = await addUser(bff, owner, STAFF);
});

afterAll(() => down?.stop());

describe('the API key never reaches the browser', () => {
  it('is absent from every reply on every route and error path, and from the logs', async () => {
    const key = bff.key;
    const echoKey: Behaviour = (req, res) =>
      json(
        res,
        429,
        { success: false, error: `limit reached for ${req.headers['x-api-key']}` },
        {
          'retry-after': String(req.headers['x-api-key']),
          'ratelimit-policy': `key=${req.headers['x-api-key']}`,
          'x-debug-key': String(req.headers['x-api-key']),
        },
      );
    const upstreamFaults: [string, Behaviour][] = [
      [
        'ok',
        (req, res) =>
          req.method === 'GET'
            ? json(res, 200, { success: true, data: { page: 1, limit: 20, total: 0, reviews: [] } })
            : json(res, 200, {
                success: true,
                data: { requestId: 'r', status: 'sent', channel: 'sms', reviewLink: 'https://x/r' },
              }),
      ],
      ['upstream 401', behaviours.status(401, { success: false, error: `API key invalid: ${key}` })],
      [
        'upstream 403',
        behaviours.status(403, fail('scope_missing', `This API key lacks the reviews:read scope (${key}).`)),
      ],
      [
        'upstream 429',
        behaviours.status(429, { success: false, error: 'Request limit reached.' }, { 'retry-after': '5' }),
      ],
      ['upstream 429 echoing the key', echoKey],
      ['upstream 500', behaviours.status(500, { success: false, error: 'Internal server error.' })],
      ['upstream garbage', behaviours.garbage(200, 'text/html')],
      [
        'upstream echoes key in success',
        (req, res) => json(res, 200, { success: true, data: { key: req.headers['x-api-key'] } }),
      ],
      ['upstream drops', behaviours.drop()],
      ['upstream hangs', behaviours.hang()],
      [
        'upstream key in text body',
        (req, res: ServerResponse) => {
          res.writeHead(502, { 'content-type': 'text/plain' });
          res.end(`bad gateway ${req.headers['x-api-key']}`);
        },
      ],
    ];
    for (const [label, behaviour] of upstreamFaults) {
      upstream.behave(behaviour);
      record(`${label}: reviews`, await owner.get('/api/v1/reviews'));
      record(`${label}: analytics`, await owner.get('/api/v1/analytics'));
      const sendKey = crypto.randomUUID();
      record(`${label}: send`, await owner.send(SMS, sendKey));
      record(`${label}: send again`, await owner.send(SMS, sendKey));
      record(`${label}: send other body`, await owner.send({ ...SMS, customerName: 'B' }, sendKey));
    }
    upstream.behave(null);

    const anonymous = bff.client();
    const local: [string, () => Promise<{ status: number; headers: Headers; text: string }>][] = [
      ['login ok', () => bff.client().login('owner@example.com', 'owner-password-1234')],
      ['login bad', () => bff.client().login('owner@example.com', 'wrong-password')],
      ['login invalid', () => bff.client().post('/auth/login', { email: 1 })],
      ['me', () => owner.get('/auth/me')],
      ['me anonymous', () => anonymous.get('/auth/me')],
      ['reviews anonymous', () => anonymous.get('/api/v1/reviews')],
      ['analytics as staff', () => staff.get('/api/v1/analytics')],
      ['users as staff', () => staff.get('/bff/users')],
      ['users', () => owner.get('/bff/users')],
      ['sends', () => owner.get('/bff/sends')],
      ['bad query', () => owner.get('/api/v1/reviews?limit=1000')],
      ['unknown api path', () => owner.get('/api/v1/keys')],
      ['wrong method', () => owner.request('DELETE', '/api/v1/reviews')],
      ['send without key', () => owner.send(SMS, null)],
      ['send invalid', () => owner.send({ channel: 'carrier-pigeon' })],
      ['send no csrf', () => owner.request('POST', '/api/v1/requests/send', { body: SMS, csrf: false })],
      ['index', () => owner.get('/', { accept: 'text/html' })],
      ['missing asset', () => owner.get('/assets/app.js')],
      ['healthz', () => anonymous.get('/healthz')],
      ['readyz', () => anonymous.get('/readyz')],
      ['metrics', () => anonymous.get('/metrics')],
      ['logout', () => bff.client().post('/auth/logout', {})],
    ];
    for (const [label, call] of local) record(label, await call());
    for (const target of [
      '/api/v1/%2e%2e/reviews',
      '//api/v1/reviews',
      'http://evil.example/api/v1/reviews',
    ]) {
      record(`raw ${target}`, await raw(bff.url, 'GET', target, { cookie: owner.cookie! }));
    }

    const downOwner = await down.owner();
    record('down reviews', await downOwner.get('/api/v1/reviews'));
    record('down send', await downOwner.send(SMS));
    record('down readyz', await downOwner.get('/readyz'));

    const statuses = replies.statuses();
    for (const status of [200, 201, 400, 401, 403, 404, 405, 409, 422, 429, 502, 504]) {
      if (status !== 201) expect(statuses, `status ${status} exercised`).toContain(status);
    }
    for (const instance of [bff, down]) {
      expect(replies.holding(instance.key)).toEqual([]);
      // Logs at trace level: the key is in no line at any level.
      expect(instance.app.logs.join('\n')).not.toContain(instance.key);
      expect(instance.app.logs.join('\n')).not.toContain('owner-password-1234');
    }
    // The refusal texts still say what to fix.
    const refused = replies.seen.find((s) => s.where === 'upstream 403: reviews')!;
    expect(JSON.parse(refused.body).error).toMatch(/lacks reviews:read/);
  });
});
