import { AUTH_REQUIRED_HEADER } from '@review-desk/shared/bff';
import { z } from '@review-desk/shared/zod';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, stubFetch } from '../test/fetch-stub.ts';
import { ApiError, NetworkError } from './api-error.ts';
import { onAuthRequired } from './auth-events.ts';
import { getJson, request } from './http.ts';

afterEach(() => vi.unstubAllGlobals());

describe('the fetch wrapper', () => {
  it('sends the CSRF header and same-origin credentials on every call, JSON bodies on writes', async () => {
    const { calls, fetchMock } = stubFetch(() => ok({}));
    await getJson('/api/v1/reviews', z.object({}));
    await request('/api/v1/requests/send', z.object({}), { method: 'POST', body: { channel: 'link' } });
    expect(calls.map((c) => c.headers.get('x-csrf'))).toEqual(['1', '1']);
    expect(fetchMock.mock.calls[0]![1]).toMatchObject({ credentials: 'same-origin' });
    expect(calls[1]!.headers.get('content-type')).toBe('application/json');
    expect(await calls[1]!.text()).toBe('{"channel":"link"}');
  });

  it('turns the BFF’s session 401 into a sign-in signal, and an upstream 401 into an error only', async () => {
    const signal = vi.fn();
    const off = onAuthRequired(signal);
    stubFetch(() => fail('session_missing', 'Sign in.', {}, { [AUTH_REQUIRED_HEADER]: 'session' }));
    const session = await getJson('/auth/me', z.unknown()).catch((e: unknown) => e);
    expect(session).toBeInstanceOf(ApiError);
    expect((session as ApiError).authRequired).toBe(true);
    expect(signal).toHaveBeenCalledTimes(1);

    stubFetch(() => fail('upstream_key_refused'));
    const key = await getJson('/api/v1/reviews', z.unknown()).catch((e: unknown) => e);
    expect((key as ApiError).authRequired).toBe(false);
    expect(signal).toHaveBeenCalledTimes(1);
    off();
  });

  it('reads a malformed answer as an error, not a crash', async () => {
    stubFetch(() => new Response('<html>proxy error</html>', { status: 200 }));
    const html = await getJson('/x', z.object({})).catch((e: unknown) => e);
    expect(html).toBeInstanceOf(ApiError);
    expect((html as ApiError).malformed).toBe(true);

    stubFetch(() => ok({ total: 'many' }));
    const wrongShape = await getJson('/x', z.object({ total: z.number() })).catch((e: unknown) => e);
    expect((wrongShape as ApiError).malformed).toBe(true);
  });

  it('keeps Retry-After and field messages', async () => {
    stubFetch(() => fail('rate_limited', 'Slow down.', {}, { 'retry-after': '7' }));
    const limited = (await getJson('/x', z.unknown()).catch((e: unknown) => e)) as ApiError;
    expect(limited.status).toBe(429);
    expect(limited.retryAfterSeconds).toBe(7);

    stubFetch(() =>
      fail('validation_failed', 'Bad.', { fields: { customerPhone: 'Phone number is required' } }),
    );
    const invalid = (await getJson('/x', z.unknown()).catch((e: unknown) => e)) as ApiError;
    expect(invalid.fields).toEqual({ customerPhone: 'Phone number is required' });
  });

  it('reports a failed connection as a network error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(getJson('/x', z.unknown())).rejects.toBeInstanceOf(NetworkError);
  });
});
