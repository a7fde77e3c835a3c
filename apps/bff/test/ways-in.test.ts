import type { IncomingHttpHeaders } from 'node:http';
import type { Role } from '@review-desk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeUpstream,
  json,
  type Recorded,
  startFakeUpstream,
} from '../../../test/support/fault-upstream.ts';
import { raw } from './support/client.ts';
import { buildBff, type InProcessBff, type Listener, serve } from './support/in-process.ts';

// The server's two ways in answer alike. The listener hands the three allow-listed calls to the
// proxy before Express; Express alone answers everything, those calls included. Both run the same
// gates in the same order (gates.ts), so every request below — each method, Origin and CSRF
// shape, session, role, body and query the suites use — must get the same status, headers and
// body from both, and make the same call upstream (or none). Request ids and dates aside.

const APP_ORIGIN = 'http://app.example.test';
const PUBLIC = 'https://desk.example.test';
const SEND = '/api/v1/requests/send';
const SMS = JSON.stringify({ customerName: 'Ann Lee', customerPhone: '+14155552671', channel: 'sms' });

type Way = { name: string; url: string };
type Who = (way: Way) => string | null;
type Case = {
  label: string;
  method: string;
  target: string;
  /** Headers and body for this way (keys and same-origin Origins are per way). */
  build: (way: Way) => { headers: Record<string, string>; body?: string };
};

let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  upstream.behave(answer);
});

afterAll(async () => {
  await upstream?.close();
});

/** Deterministic upstream answers, so two ways' bodies can be compared byte for byte. */
function answer(req: Recorded, res: import('node:http').ServerResponse) {
  const path = req.url.split('?')[0];
  if (path === '/api/v1/reviews')
    return json(res, 200, { success: true, data: { page: 1, limit: 20, total: 0, reviews: [] } });
  if (path === '/api/v1/analytics')
    return json(res, 200, { success: true, data: { requests: { completed: 1 } } });
  return json(
    res,
    200,
    {
      success: true,
      data: { requestId: 'req_same', status: 'sent', channel: 'sms', reviewLink: 'https://r/x' },
    },
    { 'ratelimit-remaining': '9', 'set-cookie': 'up=1' },
  );
}

const normalise = (headers: IncomingHttpHeaders) => {
  const { date: _date, 'x-request-id': _id, ...rest } = headers;
  return rest;
};
const upstreamCall = (c: Recorded) => ({
  method: c.method,
  url: c.url,
  headers: Object.keys(c.headers)
    .filter((h) => h !== 'x-request-id')
    .sort(),
  body: c.body.toString('utf8'),
});

/** Sends each case to both ways and compares; returns how many cases ran and their statuses. */
async function compare(ways: [Way, Way], cases: Case[]): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  for (const c of cases) {
    const seen = [];
    for (const way of ways) {
      const { headers, body } = c.build(way);
      const before = upstream.calls.length;
      const reply = await raw(way.url, c.method, c.target, headers, body);
      seen.push({
        status: reply.status,
        headers: normalise(reply.headers),
        body: reply.text,
        upstream: upstream.calls.slice(before).map(upstreamCall),
      });
    }
    expect({ case: c.label, ...seen[0] }).toEqual({ case: c.label, ...seen[1] });
    statuses.set(seen[0]!.status, (statuses.get(seen[0]!.status) ?? 0) + 1);
  }
  return statuses;
}

describe('the proxy before Express, and Express alone', () => {
  let bff: InProcessBff;
  let listeners: Listener[];
  let ways: [Way, Way];
  const tokens: Record<string, string> = {};
  const ids: Record<Role, string> = { owner: '', manager: '', staff: '' };

  beforeAll(async () => {
    bff = buildBff(upstream.url, { ALLOWED_ORIGINS: APP_ORIGIN });
    for (const role of ['owner', 'manager', 'staff'] as const) {
      const user = await bff.stores.users.create({
        email: `${role}@example.com`,
        role,
        password: 'p'.repeat(12),
      });
      ids[role] = user.id;
      tokens[role] = bff.stores.sessions.create(user.id);
    }
    tokens.signedOut = bff.stores.sessions.create(ids.owner);
    bff.stores.sessions.destroy(tokens.signedOut);
    listeners = await Promise.all([serve(bff.handler), serve(bff.app)]);
    ways = [
      { name: 'proxy before Express', url: listeners[0]!.url },
      { name: 'Express alone', url: listeners[1]!.url },
    ];
  });

  afterAll(async () => {
    await Promise.all(listeners.map((l) => l.close()));
    bff?.cleanup();
  });

  const cookie = (token: string | null): Record<string, string> =>
    token === null ? {} : { cookie: `rd_session=${token}` };
  const WHO: Record<string, Who> = {
    anonymous: () => null,
    owner: () => tokens.owner!,
    manager: () => tokens.manager!,
    staff: () => tokens.staff!,
    // A session this process has not cached: the store is asked.
    'new session': () => bff.stores.sessions.create(ids.owner),
    // Expired sessions are deleted when found: one per request.
    expired: () => bff.stores.sessions.create(ids.owner, Date.now() - 13 * 3_600_000),
    'signed out': () => tokens.signedOut!,
    forged: () => 'A'.repeat(43),
    malformed: () => 'not-a-token',
  };
  const ORIGINS: Record<string, (way: Way) => Record<string, string>> = {
    none: () => ({}),
    'same origin': (way) => ({ origin: way.url }),
    'same origin, no X-CSRF': (way) => ({ origin: way.url, 'x-csrf': '' }),
    foreign: () => ({ origin: 'https://evil.example' }),
    'null origin': () => ({ origin: 'null' }),
    allowed: () => ({ origin: APP_ORIGIN, 'sec-fetch-site': 'same-site' }),
    'Sec-Fetch-Site same-origin': () => ({ 'sec-fetch-site': 'same-origin' }),
    'Sec-Fetch-Site cross-site': (way) => ({ origin: way.url, 'sec-fetch-site': 'cross-site' }),
  };
  const withCsrf = (headers: Record<string, string>) => {
    const { 'x-csrf': csrf, ...rest } = headers;
    return csrf === '' ? rest : { 'x-csrf': '1', ...rest };
  };

  it('answers every read alike: each session and role, each Origin, each query shape', async () => {
    const targets = [
      '/api/v1/reviews',
      '/api/v1/reviews?page=1&limit=20',
      '/api/v1/reviews?minRating=04&status=pending&limit=5',
      '/api/v1/reviews?limit=500',
      '/api/v1/reviews?page=1&page=2',
      '/api/v1/reviews?api_key=rd_live_x',
      '/api/v1/reviews?status=deleted',
      '/api/v1/analytics',
      '/api/v1/analytics?days=7',
      '/api/v1/analytics?days=0',
      '/api/v1/analytics?days=1e2',
    ];
    const cases: Case[] = [];
    for (const [who, token] of Object.entries(WHO))
      for (const target of targets)
        for (const origin of ['none', 'same origin', 'foreign', 'allowed'])
          cases.push({
            label: `GET ${target} as ${who}, Origin ${origin}`,
            method: 'GET',
            target,
            build: (way) => ({
              headers: { accept: 'application/json', ...cookie(token(way)), ...ORIGINS[origin]!(way) },
            }),
          });
    for (const who of ['owner', 'anonymous'])
      cases.push({
        label: `GET with a body as ${who}`,
        method: 'GET',
        target: '/api/v1/reviews',
        build: (way) => ({
          headers: { 'content-type': 'application/json', ...cookie(WHO[who]!(way)) },
          body: '{"a":1}',
        }),
      });
    const statuses = await compare(ways, cases);
    // The table reaches every answer a read can get.
    expect([...statuses.keys()].sort()).toEqual([200, 400, 401, 403]);
  });

  it('answers every send alike: each session and role, each Origin and CSRF shape, each body and key', async () => {
    const cases: Case[] = [];
    const send = (label: string, build: Case['build']): Case => ({
      label,
      method: 'POST',
      target: SEND,
      build,
    });
    const jsonHeaders = { 'content-type': 'application/json', accept: 'application/json' };
    for (const [who, token] of Object.entries(WHO))
      for (const origin of Object.keys(ORIGINS))
        cases.push(
          send(`send as ${who}, ${origin}`, (way) => ({
            headers: withCsrf({
              ...jsonHeaders,
              'idempotency-key': crypto.randomUUID(),
              ...cookie(token(way)),
              ...ORIGINS[origin]!(way),
            }),
            body: SMS,
          })),
        );
    const bodies: Record<string, [Record<string, string>, string]> = {
      '{}': [jsonHeaders, '{}'],
      'an unknown channel': [jsonHeaders, '{"channel":"fax"}'],
      'an unknown field': [jsonHeaders, '{"channel":"link","extra":1}'],
      'an array': [jsonHeaders, '[]'],
      'malformed JSON': [jsonHeaders, '{"channel":'],
      'duplicated keys': [jsonHeaders, '{"channel":"sms","customerPhone":"+14155552671","channel":"link"}'],
      'a respelled phone': [jsonHeaders, '{ "channel":"sms", "customerPhone":"+1 (415) 555-2671" }'],
      'text/plain': [{ 'content-type': 'text/plain' }, SMS],
      'a form': [{ 'content-type': 'application/x-www-form-urlencoded' }, 'channel=sms'],
      'no Content-Type': [{}, SMS],
      'application/xml': [{ 'content-type': 'application/xml' }, '<send/>'],
      'gzip-encoded': [{ ...jsonHeaders, 'content-encoding': 'gzip' }, SMS],
      'too large': [jsonHeaders, JSON.stringify({ channel: 'link', customerName: 'x'.repeat(20_000) })],
    };
    for (const [name, [headers, body]] of Object.entries(bodies))
      cases.push(
        send(`send with ${name}`, (way) => ({
          headers: {
            ...headers,
            'x-csrf': '1',
            origin: way.url,
            'idempotency-key': crypto.randomUUID(),
            ...cookie(tokens.owner!),
          },
          body,
        })),
      );
    const keys: Record<string, () => Record<string, string>> = {
      'no Idempotency-Key': () => ({}),
      'a key that is not a UUID': () => ({ 'idempotency-key': 'not-a-uuid' }),
    };
    for (const [name, key] of Object.entries(keys))
      cases.push(
        send(`send with ${name}`, (way) => ({
          headers: { ...jsonHeaders, 'x-csrf': '1', origin: way.url, ...key(), ...cookie(tokens.owner!) },
          body: SMS,
        })),
      );
    // A key already journaled, one per way: the same intent replays, another is refused.
    const used = new Map<string, string>();
    const sent = async (way: Way) => {
      const key = crypto.randomUUID();
      const headers = {
        ...jsonHeaders,
        'x-csrf': '1',
        origin: way.url,
        'idempotency-key': key,
        ...cookie(tokens.owner!),
      };
      expect((await raw(way.url, 'POST', SEND, headers, SMS)).status).toBe(200);
      used.set(way.name, key);
    };
    for (const way of ways) await sent(way);
    for (const [name, body] of [
      ['the same intent again (replayed)', SMS],
      ['the same key for another intent', JSON.stringify({ channel: 'link' })],
    ] as const)
      cases.push(
        send(`send with ${name}`, (way) => ({
          headers: {
            ...jsonHeaders,
            'x-csrf': '1',
            origin: way.url,
            'idempotency-key': used.get(way.name)!,
            ...cookie(tokens.owner!),
          },
          body,
        })),
      );
    const statuses = await compare(ways, cases);
    expect([...statuses.keys()].sort()).toEqual([200, 400, 401, 403, 413, 415, 422]);
  });

  it('answers other methods, paths and targets under /api alike', async () => {
    const cases: Case[] = [];
    const paths = ['/api/v1/reviews', '/api/v1/analytics', SEND];
    for (const who of ['anonymous', 'owner', 'staff'])
      for (const target of paths)
        for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
          cases.push({
            label: `${method} ${target} as ${who}`,
            method,
            target,
            build: (way) => ({
              headers: {
                'x-csrf': '1',
                origin: way.url,
                'content-type': 'application/json',
                ...cookie(WHO[who]!(way)),
              },
              ...(method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? {} : { body: SMS }),
            }),
          });
    for (const origin of [APP_ORIGIN, 'https://evil.example'])
      cases.push({
        label: `preflight from ${origin}`,
        method: 'OPTIONS',
        target: SEND,
        build: () => ({ headers: { origin, 'access-control-request-method': 'POST' } }),
      });
    for (const target of [
      '/api',
      '/api/v1/nothing',
      '/api/v1/reviews/',
      '/api/v1/REVIEWS',
      '/api/v1/%2e%2e/v1/reviews',
      '/api//v1/reviews',
      `${SEND}?x=1`,
    ])
      cases.push({
        label: `GET ${target}`,
        method: 'GET',
        target,
        build: () => ({ headers: cookie(tokens.owner!) }),
      });
    const statuses = await compare(ways, cases);
    expect([...statuses.keys()].sort()).toEqual([200, 204, 400, 401, 403, 404, 405]);
  });
});

describe('with PUBLIC_URL behind a trusted proxy', () => {
  let bff: InProcessBff;
  let listeners: Listener[];
  let ways: [Way, Way];
  let token: string;

  beforeAll(async () => {
    bff = buildBff(upstream.url, { PUBLIC_URL: PUBLIC, TRUST_PROXY: 'loopback' });
    const owner = await bff.stores.users.create({
      email: 'owner@example.com',
      role: 'owner',
      password: 'p'.repeat(12),
    });
    token = bff.stores.sessions.create(owner.id);
    listeners = await Promise.all([serve(bff.handler), serve(bff.app)]);
    ways = [
      { name: 'proxy before Express', url: listeners[0]!.url },
      { name: 'Express alone', url: listeners[1]!.url },
    ];
  });

  afterAll(async () => {
    await Promise.all(listeners.map((l) => l.close()));
    bff?.cleanup();
  });

  it('answers every Host, forwarded host and Origin alike', async () => {
    const hosts: Record<string, (way: Way) => Record<string, string>> = {
      'the public host': () => ({ host: 'desk.example.test' }),
      'the public host with its port': () => ({ host: 'DESK.example.test:443' }),
      'the public host, forwarded': (way) => ({
        host: new URL(way.url).host,
        'x-forwarded-host': 'desk.example.test',
      }),
      'the server’s own address': (way) => ({ host: new URL(way.url).host }),
      'another name': () => ({ host: 'evil.example' }),
    };
    const origins: Record<string, Record<string, string>> = {
      'the public origin': { origin: PUBLIC },
      'the request’s own origin': { origin: 'http://desk.example.test' },
      foreign: { origin: 'https://evil.example' },
      none: { 'sec-fetch-site': 'same-origin' },
    };
    const cases: Case[] = [];
    for (const [hostName, host] of Object.entries(hosts))
      for (const [originName, origin] of Object.entries(origins)) {
        cases.push({
          label: `GET reviews at ${hostName}, Origin ${originName}`,
          method: 'GET',
          target: '/api/v1/reviews',
          build: (way) => ({ headers: { ...host(way), ...origin, cookie: `rd_session=${token}` } }),
        });
        cases.push({
          label: `send at ${hostName}, Origin ${originName}`,
          method: 'POST',
          target: SEND,
          build: (way) => ({
            headers: {
              ...host(way),
              ...origin,
              'x-forwarded-proto': 'https',
              'x-csrf': '1',
              'content-type': 'application/json',
              'idempotency-key': crypto.randomUUID(),
              cookie: `rd_session=${token}`,
            },
            body: SMS,
          }),
        });
      }
    const statuses = await compare(ways, cases);
    expect([...statuses.keys()].sort()).toEqual([200, 400, 403]);
  });
});
