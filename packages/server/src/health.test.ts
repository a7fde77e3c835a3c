import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthRoutes, metricsAllowed } from './health.ts';

const TOKEN = 'metrics-token-0123456789';

const request = (remoteAddress: string, headers: Record<string, string> = {}) =>
  ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

describe('who may read /metrics', () => {
  it('a loopback caller that came through no proxy', () => {
    expect(metricsAllowed(request('127.0.0.1'), undefined)).toBe(true);
    expect(metricsAllowed(request('::1'), undefined)).toBe(true);
    expect(metricsAllowed(request('::ffff:127.0.0.1'), undefined)).toBe(true);
    // A proxy on the same host forwards other people's requests.
    expect(metricsAllowed(request('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }), undefined)).toBe(false);
    expect(metricsAllowed(request('127.0.0.1', { forwarded: 'for=203.0.113.9' }), undefined)).toBe(false);
  });

  it('anyone else only with the bearer token', () => {
    expect(metricsAllowed(request('203.0.113.9'), undefined)).toBe(false);
    expect(metricsAllowed(request('203.0.113.9'), TOKEN)).toBe(false);
    expect(metricsAllowed(request('203.0.113.9', { authorization: `Bearer ${TOKEN}` }), TOKEN)).toBe(true);
    expect(metricsAllowed(request('203.0.113.9', { authorization: `bearer ${TOKEN}` }), TOKEN)).toBe(true);
    expect(metricsAllowed(request('203.0.113.9', { authorization: `Bearer ${TOKEN}x` }), TOKEN)).toBe(false);
    expect(metricsAllowed(request('203.0.113.9', { authorization: TOKEN }), TOKEN)).toBe(false);
  });
});

describe('health routes', () => {
  let url = '';
  let close = () => {};
  let upstream = 'ok';
  beforeAll(async () => {
    const app = express();
    app.use(
      healthRoutes({
        checks: { database: () => 'ok', upstream: async () => upstream },
        metrics: async () => ({ type: 'text/plain; version=0.0.4', body: 'up 1\n' }),
        metricsToken: TOKEN,
      }),
    );
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  it('says alive, and ready only when every check is', async () => {
    const live = await fetch(`${url}/healthz`);
    expect(await live.json()).toEqual({ success: true, data: { status: 'ok' } });
    expect(live.headers.get('cache-control')).toBe('no-store');
    const ready = await fetch(`${url}/readyz`);
    expect(await ready.json()).toEqual({
      success: true,
      data: { status: 'ready', checks: { database: 'ok', upstream: 'ok' } },
    });
    upstream = 'unreachable';
    const notReady = await fetch(`${url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toMatchObject({
      code: 'not_ready',
      error: 'Not ready: database ok, upstream unreachable.',
      checks: { database: 'ok', upstream: 'unreachable' },
    });
    upstream = 'ok';
  });

  it('serves metrics here (loopback), and refuses other methods with 405', async () => {
    const metrics = await fetch(`${url}/metrics`);
    expect(await metrics.text()).toBe('up 1\n');
    const forwarded = await fetch(`${url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(forwarded.status).toBe(403);
    expect(await forwarded.json()).toMatchObject({ code: 'metrics_refused' });
    const withToken = await fetch(`${url}/metrics`, {
      headers: { 'x-forwarded-for': '203.0.113.9', authorization: `Bearer ${TOKEN}` },
    });
    expect(withToken.status).toBe(200);
    const post = await fetch(`${url}/healthz`, { method: 'POST' });
    expect(post.status).toBe(405);
  });
});
