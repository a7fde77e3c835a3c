import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeUpstream } from '../../../test/support/fault-upstream.ts';
import { OWNER, startBff, type TestBff } from './support/bff.ts';
import { raw } from './support/client.ts';

// DNS rebinding: a page on evil.example whose name is made to resolve to the BFF's address sends
// requests with `Host: evil.example` and `Origin: http://evil.example` — same-origin by the Host
// rule. With PUBLIC_URL set, that origin is the only one accepted and any other Host is refused.

const PUBLIC = 'https://desk.example.test';
const SMS = JSON.stringify({ customerName: 'Ann Lee', customerPhone: '+14155552671', channel: 'sms' });

let upstream: FakeUpstream;
let pinned: TestBff;
let local: TestBff;
let cookie: string;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  [pinned, local] = await Promise.all([
    startBff(upstream.url, { PUBLIC_URL: PUBLIC }),
    startBff(upstream.url),
  ]);
  const login = await raw(
    pinned.url,
    'POST',
    '/auth/login',
    { host: 'desk.example.test', origin: PUBLIC, 'x-csrf': '1', 'content-type': 'application/json' },
    JSON.stringify(OWNER),
  );
  expect(login.status).toBe(200);
  cookie = login.headers['set-cookie']![0]!.split(';')[0]!;
});

afterAll(async () => {
  await Promise.all([pinned?.stop(), local?.stop()]);
  await upstream?.close();
});

const send = (base: string, headers: Record<string, string>) =>
  raw(
    base,
    'POST',
    '/api/v1/requests/send',
    {
      'x-csrf': '1',
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
      ...headers,
    },
    SMS,
  );

describe('with PUBLIC_URL set', () => {
  it('refuses a request addressed to another host with the envelope, signed in or not, on every route', async () => {
    const before = upstream.calls.length;
    for (const host of ['evil.example', new URL(pinned.url).host, 'desk.example.test.evil.example']) {
      for (const [method, path] of [
        ['GET', '/api/v1/reviews'],
        ['GET', '/auth/me'],
        ['GET', '/'],
      ] as const) {
        const reply = await raw(pinned.url, method, path, { host, cookie, accept: 'text/html' });
        expect({ host, path, status: reply.status }).toEqual({ host, path, status: 400 });
        expect(JSON.parse(reply.text)).toEqual({
          success: false,
          error: `This server answers only at ${PUBLIC}: the request was addressed to another host.`,
          code: 'host_refused',
        });
      }
      const rebound = await send(pinned.url, { host, origin: `http://${host}`, cookie });
      expect(rebound.status).toBe(400);
    }
    expect(upstream.calls.length).toBe(before);
  });

  it('accepts the public host and origin only', async () => {
    const read = await raw(pinned.url, 'GET', '/api/v1/reviews', { host: 'desk.example.test', cookie });
    expect(read.status).toBe(200);
    const sent = await send(pinned.url, { host: 'desk.example.test', origin: PUBLIC, cookie });
    expect(sent.status).toBe(200);
    // The request's own scheme and Host name another origin than PUBLIC_URL's: not same-origin.
    const plain = await send(pinned.url, {
      host: 'desk.example.test',
      origin: 'http://desk.example.test',
      cookie,
    });
    expect(plain.status).toBe(403);
  });

  it('still answers health probes addressed to the server itself', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const reply = await raw(pinned.url, 'GET', path);
      expect({ path, status: reply.status }).toEqual({ path, status: 200 });
    }
  });
});

describe('without PUBLIC_URL', () => {
  it('judges same-origin from Host, and says so at start', async () => {
    const client = await local.owner();
    const reply = await send(local.url, { origin: local.url, cookie: client.cookie! });
    expect(reply.status).toBe(200);
    expect(local.app.logs.join('\n')).toMatch(/PUBLIC_URL is not set: same-origin is judged from/);
    expect(pinned.app.logs.join('\n')).not.toMatch(/PUBLIC_URL is not set/);
  });
});
