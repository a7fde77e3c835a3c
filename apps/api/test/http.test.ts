import { MESSAGES, outboxListSchema, successEnvelopeSchema } from '@review-desk/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectFailure, getJson, send, startTestApi, uniquePhone, useTestApi } from './helpers.ts';

// The HTTP surface around the three endpoints: envelopes on every failure, 404/405, CORS
// (docs/api.md), security headers, the OpenAPI document and docs page, the dev outbox.

const api = useTestApi({ corsOrigins: ['https://app.example'] });
let key: string;

beforeAll(async () => {
  await api.business('b');
  key = await api.key('b');
});

describe('envelopes', () => {
  it('unknown routes → 404 envelope', async () => {
    for (const path of ['/api/v1/nope', '/api/v2/reviews', '/anything', '/api/v1/reviews/123/nope']) {
      expectFailure(await getJson(api, path, key), 'not_found');
    }
  });

  it('a path that is not valid percent-encoding → 400 envelope, not a crash', async () => {
    const result = await getJson(api, '/r/%E0%A4%A');
    expectFailure(result, 'malformed_url');
  });

  it('wrong method on a known path → 405 envelope with Allow', async () => {
    const put = await api.fetch('/api/v1/reviews', { method: 'PUT', headers: { 'x-api-key': key } });
    const body = await put.json();
    expect(expectFailure({ status: put.status, headers: put.headers, body }, 'method_not_allowed')).toBe(
      MESSAGES.methodNotAllowed('GET'),
    );
    expect(put.headers.get('allow')).toBe('GET');
    const get = await getJson(api, '/api/v1/requests/send', key);
    expectFailure(get, 'method_not_allowed');
    expect(get.headers.get('allow')).toBe('POST');
    const del = await api.fetch('/api/v1/analytics', { method: 'DELETE' });
    expect(del.status).toBe(405);
  });

  it('responses carry a request id, and a safe incoming one is echoed', async () => {
    const mine = await getJson(api, '/api/v1/reviews', key, { 'x-request-id': 'trace-123' });
    expect(mine.headers.get('x-request-id')).toBe('trace-123');
    const unsafe = await getJson(api, '/api/v1/reviews', key, { 'x-request-id': 'bad id with spaces' });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('security headers', () => {
  it('JSON answers: nosniff, no framing, no caching, no referrer', async () => {
    const result = await getJson(api, '/api/v1/reviews', key);
    expect(result.headers.get('x-content-type-options')).toBe('nosniff');
    expect(result.headers.get('x-frame-options')).toBe('DENY');
    expect(result.headers.get('cache-control')).toBe('no-store');
    expect(result.headers.get('referrer-policy')).toBe('no-referrer');
    expect(result.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(result.headers.get('x-powered-by')).toBeNull();
  });
});

describe('CORS (docs/api.md)', () => {
  it('an allowed origin is echoed exactly, never *, and without credentials', async () => {
    const result = await getJson(api, '/api/v1/reviews', key, { origin: 'https://app.example' });
    expect(result.status).toBe(200);
    expect(result.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(result.headers.get('access-control-allow-credentials')).toBeNull();
    expect(result.headers.get('vary')).toMatch(/Origin/i);
  });

  it('a preflight from an allowed origin names the methods and headers', async () => {
    const response = await api.fetch('/api/v1/requests/send', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-api-key',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')).toContain('x-api-key');
    expect(response.headers.get('access-control-allow-headers')).toContain('authorization');
  });

  it('a disallowed origin gets no CORS headers, on preflight or call', async () => {
    const preflight = await api.fetch('/api/v1/reviews', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-methods')).toBeNull();
    const call = await getJson(api, '/api/v1/reviews', key, { origin: 'https://evil.example' });
    expect(call.headers.get('access-control-allow-origin')).toBeNull();
    expect(call.headers.get('vary')).toMatch(/Origin/i);
  });

  it('a CORS-allowed origin also satisfies the POST Origin rule', async () => {
    const result = await send(api, key, { channel: 'link' }, { origin: 'https://app.example' });
    expect(result.status).toBe(200);
    expect(result.headers.get('access-control-allow-origin')).toBe('https://app.example');
  });
});

describe('OpenAPI and docs', () => {
  it('serves an OpenAPI 3.1 document generated from the shared schemas', async () => {
    const result = await getJson(api, '/api/v1/openapi.json');
    expect(result.status).toBe(200);
    expect(result.body.openapi).toBe('3.1.0');
    expect(Object.keys(result.body.paths).sort()).toEqual([
      '/api/v1/analytics',
      '/api/v1/integrations/google',
      '/api/v1/requests',
      '/api/v1/requests/send',
      '/api/v1/requests/{id}',
      '/api/v1/reviews',
      '/api/v1/reviews/{id}',
      '/api/v1/reviews/{id}/reply',
      '/api/v1/settings',
      '/api/v1/settings/test',
      '/webhooks/twilio/inbound',
      '/webhooks/twilio/status',
    ]);
    expect(result.body.paths['/api/v1/settings'].put['x-extension']).toBe(true);
    expect(result.body.paths['/api/v1/settings/test'].post['x-extension']).toBe(true);
    // Answering reviews: the extension's calls, the reply body as the shared schema has it.
    const replyBody =
      result.body.paths['/api/v1/reviews/{id}/reply'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(replyBody.properties)).toEqual(['text', 'version', 'respondedBy']);
    expect(replyBody.properties.text.maxLength).toBe(4096);
    expect(result.body.paths['/api/v1/reviews/{id}'].patch['x-extension']).toBe(true);
    // The connection's answer never has a place for the refresh token.
    const connection = result.body.components.schemas.GoogleConnection;
    expect(JSON.stringify(connection)).not.toMatch(/refresh/i);
    expect(Object.keys(connection.properties.connection.anyOf[0].properties)).toContain('accountId');
    const sendBody =
      result.body.paths['/api/v1/requests/send'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(sendBody.properties)).toEqual([
      'customerName',
      'customerPhone',
      'customerEmail',
      'channel',
      // The extensions of sends that wait (docs/api.md).
      'sendAt',
      'delayMinutes',
      'externalId',
    ]);
    expect(sendBody.additionalProperties).toBe(false);
    const limit = result.body.paths['/api/v1/reviews'].get.parameters.find(
      (p: { name: string }) => p.name === 'limit',
    );
    expect(limit.schema).toMatchObject({ minimum: 1, maximum: 100, default: 20 });
    expect(result.body.components.schemas.Analytics.properties.requests.properties.reviewLeft).toBeDefined();
    expect(result.body.servers[0].url).toBe(api.ctx.site.publicOrigin);
  });

  it('renders a readable docs page without scripts', async () => {
    const response = await api.fetch('/docs');
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toContain('/api/v1/requests/send');
    expect(html).toContain('minRating');
    // The error table lists the service's codes, not the BFF's.
    expect(html).toContain('<code>delivery_failed</code>');
    expect(html).not.toContain('<code>session_expired</code>');
    expect(html).not.toMatch(/<script/i);
    expect(response.headers.get('content-security-policy')).not.toContain('script-src');
  });
});

describe('dev outbox', () => {
  it('lists messages newest first, filters by recipient (any spelling) and request', async () => {
    const phone = uniquePhone();
    const first = await send(api, key, { customerPhone: phone });
    const result = await getJson(
      api,
      `/dev/outbox.json?to=${encodeURIComponent(phone.replace('+1', '+1 '))}`,
    );
    const messages = successEnvelopeSchema(outboxListSchema).parse(result.body).data.messages;
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ requestId: first.body.data.requestId, to: phone });
    expect(messages[0]!.body).toContain(first.body.data.reviewLink);

    await send(api, key, { customerPhone: uniquePhone() });
    const all = successEnvelopeSchema(outboxListSchema).parse((await getJson(api, '/dev/outbox.json')).body)
      .data.messages;
    expect(Date.parse(all[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(all[1]!.createdAt));
    expect(all[1]!.requestId).toBe(first.body.data.requestId);

    expectFailure(await getJson(api, '/dev/outbox.json?limit=0'), 'validation_failed');
    expectFailure(await getJson(api, '/dev/outbox.json?sort=x'), 'validation_failed');
    const html = await api.fetch('/dev/outbox');
    expect(html.status).toBe(200);
    expect(await html.text()).toContain(phone);
  });

  it('is not served unless DEV_OUTBOX=1', async () => {
    const off = await startTestApi({ devOutbox: false });
    try {
      expectFailure(await getJson(off, '/dev/outbox.json'), 'not_found');
      expectFailure(await getJson(off, '/dev/outbox'), 'not_found');
    } finally {
      await off.stop();
    }
  });
});

describe('health', () => {
  it('answers liveness and readiness without a key', async () => {
    expect((await getJson(api, '/healthz')).body).toEqual({ success: true, data: { status: 'ok' } });
    expect((await getJson(api, '/readyz')).status).toBe(200);
  });
});

describe('wrong method beats the Origin rule', () => {
  it('a POST to a GET endpoint is a 405, not an Origin refusal', async () => {
    const response = await api.fetch('/api/v1/reviews', { method: 'POST', headers: { 'x-api-key': key } });
    expect(response.status).toBe(405);
  });
});

describe('requests the HTTP parser refuses', () => {
  it('oversized headers and garbage get the envelope too', async () => {
    const { connect } = await import('node:net');
    const url = new URL(api.url);
    const raw = (payload: string) =>
      new Promise<string>((resolve) => {
        const socket = connect(Number(url.port), url.hostname, () => socket.end(payload));
        let data = '';
        socket.on('data', (chunk) => {
          data += chunk;
        });
        socket.on('close', () => resolve(data));
        socket.on('error', () => resolve(data));
      });
    const big = await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(big).toMatch(/^HTTP\/1.1 431/);
    expect(big).toContain(
      '{"success":false,"error":"Request headers too large.","code":"headers_too_large"}',
    );
    const garbage = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1.1 400/);
    expect(garbage).toContain('"code":"malformed_request"');
  });
});
