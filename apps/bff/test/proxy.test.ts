import http from 'node:http';
import { fail } from '@review-desk/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BFF_READ_HEADERS,
  BFF_SEND_HEADERS,
  behaviours,
  type FakeUpstream,
  json,
  startFakeUpstream,
} from '../../../test/support/fault-upstream.ts';
import { addUser, deadUpstreamUrl, startBff, type TestBff } from './support/bff.ts';
import { type DashboardClient, expectFailure, raw } from './support/client.ts';
import { SMS, STAFF } from './support/fixtures.ts';

// The allow-listed proxy against a recording upstream: what reaches the upstream (key, Origin,
// headers, exact bytes), what never does, and what the browser gets back when the upstream fails.

let upstream: FakeUpstream;
let bff: TestBff; // X-API-Key scheme
let bearer: TestBff; // Bearer scheme, explicit UPSTREAM_ORIGIN, a CORS allow-list
let owner: DashboardClient;
let bearerOwner: DashboardClient;
const APP_ORIGIN = 'http://app.example.test';

beforeAll(async () => {
  upstream = await startFakeUpstream();
  [bff, bearer] = await Promise.all([
    startBff(upstream.url),
    startBff(upstream.url, {
      UPSTREAM_AUTH_SCHEME: 'bearer',
      UPSTREAM_ORIGIN: 'https://reviews.example.com',
      ALLOWED_ORIGINS: APP_ORIGIN,
    }),
  ]);
  [owner, bearerOwner] = await Promise.all([bff.owner(), bearer.owner()]);
});

afterAll(async () => {
  await Promise.all([bff?.stop(), bearer?.stop()]);
  await upstream?.close();
});

afterEach(() => upstream.reset());

describe('the key reaches the upstream, the browser’s credentials never do', () => {
  it('injects the key as X-API-Key', async () => {
    const reply = await owner.get('/api/v1/reviews');
    expect(reply.status).toBe(200);
    const call = upstream.calls[0]!;
    expect(call.headers['x-api-key']).toBe(bff.key);
    expect(call.headers.authorization).toBeUndefined();
  });

  it('injects the key as Authorization: Bearer when configured', async () => {
    const reply = await bearerOwner.get('/api/v1/analytics?days=7');
    expect(reply.status).toBe(200);
    const call = upstream.calls[0]!;
    expect(call.headers.authorization).toBe(`Bearer ${bearer.key}`);
    expect(call.headers['x-api-key']).toBeUndefined();
  });

  it('sets Origin to the upstream origin on POST, and to UPSTREAM_ORIGIN when given', async () => {
    expect((await owner.send(SMS)).status).toBe(200);
    expect((await bearerOwner.send(SMS)).status).toBe(200);
    const [plain, explicit] = upstream.calls;
    expect(plain!.headers.origin).toBe(upstream.url);
    expect(explicit!.headers.origin).toBe('https://reviews.example.com');
  });

  it('does not add Origin to reads', async () => {
    await owner.get('/api/v1/reviews', { origin: bff.url });
    expect(upstream.calls[0]!.headers.origin).toBeUndefined();
  });

  it('forwards only its own headers: no Cookie, Authorization, X-API-Key, Sec-Fetch-*, Referer, hop-by-hop', async () => {
    const hostile = {
      authorization: 'Bearer browser-token',
      'x-api-key': 'rd_live_browser-supplied-key',
      'sec-fetch-site': 'same-origin',
      'sec-fetch-mode': 'cors',
      'sec-fetch-dest': 'empty',
      referer: `${bff.url}/reviews?secret=1`,
      'x-forwarded-for': '203.0.113.9',
      forwarded: 'for=203.0.113.9',
      'x-custom-header': 'smuggled',
      te: 'trailers',
      'keep-alive': 'timeout=99',
      'proxy-authorization': 'Basic Zm9vOmJhcg==',
      'accept-language': 'fr-CA,fr;q=0.9',
    };
    const read = await raw(bff.url, 'GET', '/api/v1/reviews', {
      ...hostile,
      cookie: `${owner.cookie}; other=1`,
    });
    const write = await raw(
      bff.url,
      'POST',
      '/api/v1/requests/send',
      {
        ...hostile,
        cookie: owner.cookie!,
        origin: bff.url,
        'x-csrf': '1',
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
      },
      JSON.stringify(SMS),
    );
    expect([read.status, write.status]).toEqual([200, 200]);
    for (const [i, call] of upstream.calls.entries()) {
      const names = Object.keys(call.headers).filter((name) => name !== 'connection');
      const expected: string[] = [...(i === 1 ? BFF_SEND_HEADERS : BFF_READ_HEADERS)];
      expect(names.sort()).toEqual(expected.sort());
      // Only the agent's own connection management, never the browser's.
      expect(call.headers.connection ?? 'keep-alive').toMatch(/^(keep-alive|close)$/);
      expect(call.headers['x-api-key']).toBe(bff.key);
      expect(call.headers['accept-language']).toBe('fr-CA,fr;q=0.9');
      expect(call.headers.host).toBe(new URL(upstream.url).host);
    }
    expect(upstream.calls[0]!.headers['x-request-id']).toBe(read.headers['x-request-id']);
  });

  it('forwards the validated body, re-serialised: the upstream reads exactly the values the BFF checked', async () => {
    const cases: [string, Record<string, string>][] = [
      ['{"channel":"link"}', { channel: 'link' }],
      [
        '{ "channel" : "sms" ,\n  "customerPhone":"+1 (415) 555-2671",\t"customerName":"Zoë Ünal 🌟" }',
        { customerName: 'Zoë Ünal 🌟', customerPhone: '+14155552671', channel: 'sms' },
      ],
      [
        '{"customerEmail":"Ann@Example.COM","channel":"email","customerName":"  Ann  "}',
        { customerName: 'Ann', customerEmail: 'ann@example.com', channel: 'email' },
      ],
      // Duplicated keys: the BFF's parser keeps the last value and checks it; a parser that kept
      // the first would read a value nobody checked, so only the checked one may go out.
      [
        '{"channel":"sms","customerPhone":"+14155552671","channel":"link"}',
        { customerPhone: '+14155552671', channel: 'link' },
      ],
      [
        '{"customerEmail":"first@example.com","channel":"email","customerEmail":"second@example.com"}',
        { customerEmail: 'second@example.com', channel: 'email' },
      ],
    ];
    for (const [rawBody] of cases) {
      const reply = await owner.request('POST', '/api/v1/requests/send', {
        rawBody,
        headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      });
      expect(reply.status).toBe(200);
    }
    const expected = cases.map(([, checked]) => JSON.stringify(checked));
    expect(upstream.calls.map((c) => c.body.toString('utf8'))).toEqual(expected);
    expect(upstream.calls.map((c) => Number(c.headers['content-length']))).toEqual(
      expected.map((b) => Buffer.byteLength(b)),
    );
  });

  it('refuses an invalid body (including {}, which lacks the phone its default channel needs) without forwarding', async () => {
    for (const body of [{}, { channel: 'sms' }, { channel: 'fax' }, { channel: 'link', extra: 1 }, []]) {
      const reply = await owner.send(body);
      expect(reply.status).toBe(400);
      expect(reply.json.success).toBe(false);
    }
    const malformed = await owner.request('POST', '/api/v1/requests/send', {
      rawBody: '{"channel":',
      headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    });
    expect(malformed.status).toBe(400);
    expect(upstream.calls).toHaveLength(0);
  });
});

describe('sessions and roles on the proxy', () => {
  it('still refuses a role the route does not allow, and a signed-out session, once cached', async () => {
    const staff = await addUser(bff, owner, { ...STAFF, email: 'fast-staff@example.com' });
    for (let i = 0; i < 3; i++) expect((await staff.get('/api/v1/analytics')).status).toBe(403);
    expect((await staff.get('/api/v1/reviews')).status).toBe(200);
    expect((await staff.get('/api/v1/reviews')).status).toBe(200);
    const token = staff.cookie;
    await staff.post('/auth/logout', {});
    const replayed = bff.client();
    replayed.cookie = token;
    expect((await replayed.get('/api/v1/reviews')).status).toBe(401);
    expect(upstream.count('/api/v1/analytics')).toBe(0);
    expect(upstream.count('/api/v1/reviews')).toBe(2);
  });
});

describe('the allow-list', () => {
  it('forwards a canonical query rebuilt from the parsed values', async () => {
    await owner.get('/api/v1/reviews?minRating=04&status=pending&limit=5');
    await owner.get('/api/v1/analytics');
    expect(upstream.calls.map((c) => c.url)).toEqual([
      '/api/v1/reviews?page=1&limit=5&status=pending&minRating=4',
      '/api/v1/analytics?days=30',
    ]);
  });

  it('refuses other paths and methods, and invalid queries, without calling the upstream', async () => {
    const cases: [string, string, number][] = [
      ['GET', '/api/v1/requests/send', 405],
      ['POST', '/api/v1/reviews', 405],
      ['PUT', '/api/v1/reviews', 405],
      ['DELETE', '/api/v1/reviews', 405],
      ['PATCH', '/api/v1/analytics', 405],
      ['HEAD', '/api/v1/reviews', 405],
      ['GET', '/api/v1/reviews/', 404],
      ['GET', '/api/v1/reviews/r1', 404],
      ['GET', '/api/v1/REVIEWS', 404],
      ['GET', '/api/v2/reviews', 404],
      ['POST', '/api/v1/requests', 405],
      ['GET', '/api/v1/requests/', 404],
      ['GET', '/api/v1/requests/a/b', 404],
      ['GET', '/api/v1/requests/a%20b', 404],
      ['GET', '/api/v1/requests?status=delivered', 400],
      ['GET', '/api/v1/requests/req_1?page=2', 400],
      ['GET', '/api/v1/dev/outbox.json', 404],
      ['GET', '/api', 404],
      ['GET', '/api/v1/reviews?limit=500', 400],
      ['GET', '/api/v1/reviews?page=1&page=2', 400],
      ['GET', '/api/v1/reviews?api_key=rd_live_x', 400],
      ['GET', '/api/v1/reviews?status=deleted', 400],
      ['GET', '/api/v1/analytics?days=0', 400],
      ['GET', '/api/v1/analytics?days=1e2', 400],
    ];
    for (const [method, path, status] of cases) {
      const reply = await owner.request(
        method,
        path,
        method === 'GET' || method === 'HEAD' ? {} : { body: {} },
      );
      expect({ method, path, status: reply.status }).toEqual({ method, path, status });
      if (method !== 'HEAD') expect(reply.json).toMatchObject({ success: false });
      if (status === 405) expect(reply.headers.get('allow')).toBeTruthy();
    }
    expect(upstream.calls).toHaveLength(0);
  });

  it('refuses encoded dot-segments, encoded slashes and backslashes, double encoding, // and absolute-form with 400', async () => {
    const { port } = new URL(bff.url);
    const targets = [
      '/api/v1/%2e%2e/v1/reviews',
      '/api/v1/reviews/%2E%2E/analytics',
      '/api/v1/%2e/reviews',
      '/api/v1/requests%2fsend',
      '/api/v1/requests%2Fsend',
      '/api/v1%5creviews',
      '/api/v1/%252e%252e/reviews',
      '/api/v1/reviews%252f',
      '//api/v1/reviews',
      '/api//v1/reviews',
      '/api/v1/reviews/../analytics',
      '/api/v1/./reviews',
      '/api\\v1\\reviews',
      `http://127.0.0.1:${port}/api/v1/reviews`,
      'http://upstream.example/api/v1/reviews',
    ];
    for (const target of targets) {
      const reply = await raw(bff.url, 'GET', target, { cookie: owner.cookie!, accept: 'application/json' });
      expect({ target, status: reply.status }).toEqual({ target, status: 400 });
      expect(JSON.parse(reply.text)).toMatchObject({ success: false });
    }
    expect(upstream.calls).toHaveLength(0);
  });

  it('rejects a GET with a body', async () => {
    const reply = await raw(
      bff.url,
      'GET',
      '/api/v1/reviews',
      { cookie: owner.cookie!, 'content-type': 'application/json' },
      '{"a":1}',
    );
    expect(reply.status).toBe(400);
    expect(upstream.calls).toHaveLength(0);
  });
});

describe('CSRF on the BFF’s state-changing routes', () => {
  const sendPath = '/api/v1/requests/send';
  const base = () => ({
    cookie: owner.cookie!,
    'content-type': 'application/json',
    'idempotency-key': crypto.randomUUID(),
  });

  it('refuses a missing X-CSRF header, a foreign Origin, cross-site Sec-Fetch-Site, neither Origin nor Sec-Fetch-Site, and form/text bodies', async () => {
    const body = JSON.stringify(SMS);
    const refused: Record<string, string>[] = [
      { origin: bff.url }, // no X-CSRF
      { 'x-csrf': '1', origin: 'https://evil.example' },
      { 'x-csrf': '1', origin: 'null' },
      { 'x-csrf': '1', 'sec-fetch-site': 'cross-site' },
      { 'x-csrf': '1', 'sec-fetch-site': 'same-site' },
      { 'x-csrf': '1' }, // neither
      { 'x-csrf': '1', origin: bff.url, 'content-type': 'text/plain' },
      { 'x-csrf': '1', origin: bff.url, 'content-type': 'application/x-www-form-urlencoded' },
      { 'x-csrf': '1', origin: bff.url, 'content-type': 'multipart/form-data; boundary=x' },
      { 'x-csrf': '0', origin: bff.url },
    ];
    for (const headers of refused) {
      const reply = await raw(bff.url, 'POST', sendPath, { ...base(), ...headers }, body);
      expect({ headers, status: reply.status }).toEqual({ headers, status: 403 });
      expect(reply.headers['access-control-allow-origin']).toBeUndefined();
    }
    for (const path of ['/auth/login', '/auth/logout']) {
      const reply = await raw(
        bff.url,
        'POST',
        path,
        { 'content-type': 'text/plain', 'x-csrf': '1', origin: bff.url },
        body,
      );
      expect(reply.status).toBe(403);
      const noHeader = await raw(
        bff.url,
        'POST',
        path,
        { 'content-type': 'application/json', origin: bff.url },
        '{}',
      );
      expect(noHeader.status).toBe(403);
    }
    expect(upstream.calls.map((c) => `${c.method} ${c.url}`)).toEqual([]);
  });

  it('accepts X-CSRF with a same-origin Origin, or with Sec-Fetch-Site: same-origin', async () => {
    const body = JSON.stringify(SMS);
    const a = await raw(bff.url, 'POST', sendPath, { ...base(), 'x-csrf': '1', origin: bff.url }, body);
    const b = await raw(
      bff.url,
      'POST',
      sendPath,
      { ...base(), 'x-csrf': '1', 'sec-fetch-site': 'same-origin' },
      body,
    );
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(upstream.calls).toHaveLength(2);
  });
});

describe('CORS', () => {
  it('answers an allowed origin’s preflight with credentials and Vary: Origin', async () => {
    const reply = await raw(bearer.url, 'OPTIONS', '/api/v1/requests/send', {
      origin: APP_ORIGIN,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, x-csrf, idempotency-key',
    });
    expect(reply.status).toBe(204);
    expect(reply.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(reply.headers['access-control-allow-credentials']).toBe('true');
    expect(reply.headers['access-control-allow-headers']?.toLowerCase()).toContain('idempotency-key');
    expect(reply.headers.vary).toContain('Origin');
  });

  it('lets an allowed origin send (CSRF passes for it) and read', async () => {
    const send = await raw(
      bearer.url,
      'POST',
      '/api/v1/requests/send',
      {
        cookie: bearerOwner.cookie!,
        origin: APP_ORIGIN,
        'sec-fetch-site': 'same-site',
        'x-csrf': '1',
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
      },
      JSON.stringify(SMS),
    );
    expect(send.status).toBe(200);
    expect(send.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(upstream.calls).toHaveLength(1);
  });

  it('gives a foreign origin no CORS headers and refuses its state-changing requests', async () => {
    const read = await raw(bearer.url, 'GET', '/api/v1/reviews', {
      cookie: bearerOwner.cookie!,
      origin: 'https://evil.example',
    });
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    expect(read.headers.vary).toContain('Origin');
    const preflight = await raw(bearer.url, 'OPTIONS', '/api/v1/requests/send', {
      origin: 'https://evil.example',
      'access-control-request-method': 'POST',
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const write = await raw(
      bearer.url,
      'POST',
      '/api/v1/requests/send',
      {
        cookie: bearerOwner.cookie!,
        origin: 'https://evil.example',
        'x-csrf': '1',
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
      },
      JSON.stringify(SMS),
    );
    expect(write.status).toBe(403);
    expect(write.headers['access-control-allow-origin']).toBeUndefined();
    const logout = await raw(bearer.url, 'POST', '/auth/logout', {
      origin: 'https://evil.example',
      'x-csrf': '1',
    });
    expect(logout.status).toBe(403);
    expect(upstream.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });
});

describe('upstream answers and failures', () => {
  it('passes a 429 through with Retry-After and RateLimit-*, dropping Set-Cookie and other upstream headers', async () => {
    upstream.behave(
      behaviours.status(
        429,
        { success: false, error: 'Request limit of this key reached; retry after 7 seconds.' },
        {
          'retry-after': '7',
          'ratelimit-limit': '60',
          'ratelimit-remaining': '0',
          'ratelimit-reset': '7',
          'set-cookie': 'upstream_session=abc; Path=/',
          'access-control-allow-origin': '*',
          server: 'review-api/1.0',
          'x-powered-by': 'Express',
        },
      ),
    );
    const reply = await owner.get('/api/v1/reviews');
    expect(reply.status).toBe(429);
    expect(reply.json).toEqual({
      success: false,
      error: 'Request limit of this key reached; retry after 7 seconds.',
    });
    expect(reply.headers.get('retry-after')).toBe('7');
    expect(reply.headers.get('ratelimit-remaining')).toBe('0');
    expect(reply.headers.get('ratelimit-limit')).toBe('60');
    expect(reply.headers.getSetCookie()).toEqual([]);
    expect(reply.headers.get('access-control-allow-origin')).toBeNull();
    expect(reply.headers.get('server')).toBeNull();
    expect(reply.headers.get('x-powered-by')).toBeNull();
  });

  it('passes a 200 envelope through unchanged, byte for byte', async () => {
    const body = '{"success":true,"data":{"page":1,"limit":20,"total":0,"reviews":[],"extra":"kept ✓"}}';
    upstream.behave((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(body);
    });
    const reply = await owner.get('/api/v1/reviews');
    expect(reply.status).toBe(200);
    expect(reply.text).toBe(body);
    expect(reply.headers.get('cache-control')).toBe('no-store');
  });

  it('turns a garbage body into a plain 502 envelope without the upstream’s details', async () => {
    for (const behaviour of [
      behaviours.garbage(200, 'text/html'),
      behaviours.garbage(200, 'application/json'),
      behaviours.garbage(500, 'text/html'),
      (_req: unknown, res: import('node:http').ServerResponse) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('');
      },
    ]) {
      upstream.behave(behaviour);
      const reply = await owner.get('/api/v1/analytics');
      expect(reply.status).toBe(502);
      expect(reply.json.success).toBe(false);
      expect(reply.text).not.toContain('upstream-lb-7');
      expect(reply.text).not.toContain('127.0.0.1');
    }
  });

  it('never relays half an answer when the upstream is cut off mid-body', async () => {
    upstream.behave((_req, res, socket) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
      res.write('{"success":true,"data":{"reviews":[');
      setTimeout(() => socket.destroy(), 50);
    });
    const started = Date.now();
    const reply = await owner.get('/api/v1/reviews').catch((error: Error) => ({ status: 0, error }));
    expect(Date.now() - started).toBeLessThan(1_400);
    // http-proxy-middleware drops the browser's connection when the upstream's does (a read the
    // dashboard retries); what matters is no hang and never a 200 with half a body.
    expect([502, 0]).toContain(reply.status);
  });

  it('aborts the upstream read when the browser goes away before its answer', async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
    let asked!: () => void;
    const reached = new Promise<void>((resolve) => (asked = resolve));
    upstream.behave((_req, _res, socket) => {
      socket.once('close', upstreamClosed);
      asked();
    });
    const url = new URL(bff.url);
    const browser = http.request({
      host: url.hostname,
      port: url.port,
      path: '/api/v1/reviews',
      headers: { cookie: owner.cookie as string },
      agent: false,
    });
    browser.on('error', () => {});
    browser.end();
    await reached;
    const gone = Date.now();
    browser.destroy();
    await closed;
    // Well before the 1.5 s upstream deadline: the exchange was dropped, not left to time out.
    expect(Date.now() - gone).toBeLessThan(1_000);
  });

  it('keeps a 503’s status when its body is unreadable', async () => {
    upstream.behave(behaviours.garbage(503, 'text/html'));
    const reply = await owner.get('/api/v1/reviews');
    expect(reply.status).toBe(503);
    expect(reply.json.success).toBe(false);
  });

  it('answers 504 within the timeout when the upstream hangs', async () => {
    upstream.behave(behaviours.hang());
    const started = Date.now();
    const reply = await owner.get('/api/v1/reviews');
    const elapsed = Date.now() - started;
    expect(reply.status).toBe(504);
    expect(reply.json).toEqual({
      success: false,
      error: expect.stringMatching(/did not answer in time/),
      code: 'upstream_timeout',
    });
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    expect(elapsed).toBeLessThan(1500 + 1500);
    expect(reply.text).not.toContain(new URL(upstream.url).port);
  });

  it('explains an upstream 401 as the server’s key, not the user’s session', async () => {
    upstream.behave(behaviours.status(401, fail('key_invalid')));
    const reply = await owner.get('/api/v1/reviews');
    expect(reply.status).toBe(401);
    expect(reply.headers.get('x-auth-required')).toBeNull();
    expect(reply.json.error).toMatch(/server’s API key/);
    expect(reply.json.code).toBe('upstream_key_refused');
  });

  it('names the scope a route needs when the upstream refuses with 403', async () => {
    upstream.behave(
      behaviours.status(403, fail('scope_missing', 'This API key lacks the analytics:read scope.')),
    );
    const reply = await owner.get('/api/v1/analytics');
    expectFailure(reply, 403, 'upstream_scope_missing', /^The server’s API key lacks analytics:read/);
    upstream.behave(
      behaviours.status(
        403,
        fail(
          'allowance_exceeded',
          'Sending allowance exceeded: this business may send 100 review requests per calendar month.',
        ),
      ),
    );
    const send = await owner.send(SMS);
    expectFailure(send, 403, 'allowance_exceeded', /Sending allowance exceeded/);
  });

  it('never relays an upstream body that contains the key', async () => {
    upstream.behave((req, res) =>
      json(res, 200, { success: true, data: { echo: req.headers['x-api-key'] } }),
    );
    const reply = await owner.get('/api/v1/reviews');
    expect(reply.status).toBe(502);
    expect(reply.text).not.toContain(bff.key);
  });
});

describe('an unreachable upstream', () => {
  it('answers 502 for reads and sends, and records the send as failed', async () => {
    const deadUrl = await deadUpstreamUrl();
    const down = await startBff(deadUrl);
    try {
      const client = await down.owner();
      const read = await client.get('/api/v1/reviews');
      expectFailure(
        read,
        502,
        'upstream_unreachable',
        'The review service could not be reached. Try again in a moment.',
      );
      const send = await client.send(SMS);
      expectFailure(send, 502, 'upstream_unreachable', /nothing was sent/);
      const history = await client.get('/bff/sends');
      expect(history.json.data.sends[0]).toMatchObject({ outcome: 'failed', httpStatus: 502 });
      const ready = await client.get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.json.checks).toEqual({ database: 'ok', upstream: 'unreachable' });
      for (const r of [read, send, ready]) expect(r.text).not.toContain(new URL(deadUrl).port);
    } finally {
      await down.stop();
    }
  });
});
