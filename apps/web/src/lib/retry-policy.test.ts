import type { ErrorCode } from '@review-desk/shared/errors';
import { failureInfo } from '@review-desk/shared/errors';
import { z } from '@review-desk/shared/zod';
import { QueryClientProvider, useMutation, useQuery } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, stubFetch } from '../test/fetch-stub.ts';
import { ApiError, NetworkError } from './api-error.ts';
import { getJson, request } from './http.ts';
import { createQueryClient } from './query-client.ts';
import {
  BASE_DELAY_MS,
  MAX_DELAY_MS,
  MAX_READ_RETRIES,
  MAX_SILENT_RETRY_AFTER_S,
  retryDelayMs,
  shouldRetryRead,
  withReadRetry,
} from './retry-policy.ts';

afterEach(() => vi.unstubAllGlobals());

function apiError(
  status: number,
  retryAfterSeconds: number | null = null,
  opts: { malformed?: boolean; authRequired?: boolean; code?: ErrorCode } = {},
) {
  return new ApiError(
    {
      ok: false,
      status,
      error: 'x',
      code: opts.code ?? null,
      retryAfterSeconds,
      malformed: opts.malformed ?? false,
      headers: new Headers(),
    },
    opts.authRequired ?? false,
    failureInfo({ status, code: opts.code ?? null }),
  );
}

describe('which reads are retried', () => {
  it('retries network failures, 429 and 5xx', () => {
    expect(shouldRetryRead(0, new NetworkError(new TypeError('offline')))).toBe(true);
    for (const status of [429, 500, 502, 503, 504, 599])
      expect(shouldRetryRead(0, apiError(status))).toBe(true);
  });

  it('never retries what waiting cannot fix', () => {
    for (const status of [400, 401, 403, 404, 409, 422])
      expect(shouldRetryRead(0, apiError(status))).toBe(false);
    expect(shouldRetryRead(0, apiError(200, null, { malformed: true }))).toBe(false);
    expect(shouldRetryRead(0, apiError(401, null, { authRequired: true }))).toBe(false);
    expect(shouldRetryRead(0, new Error('bug'))).toBe(false);
  });

  it('decides on the code when the answer has one of ours, on the status otherwise', () => {
    expect(shouldRetryRead(0, apiError(502, null, { code: 'upstream_unreachable' }))).toBe(true);
    expect(shouldRetryRead(0, apiError(504, null, { code: 'upstream_timeout' }))).toBe(true);
    // The table, not the status, says whether waiting helps.
    expect(shouldRetryRead(0, apiError(500, null, { code: 'validation_failed' }))).toBe(false);
    expect(shouldRetryRead(0, apiError(400, null, { code: 'rate_limited' }))).toBe(true);
  });

  it('stops after three retries', () => {
    const error = apiError(503);
    expect([0, 1, 2, 3].map((count) => shouldRetryRead(count, error))).toEqual([true, true, true, false]);
    expect(MAX_READ_RETRIES).toBe(3);
  });

  it('does not wait out a long Retry-After silently', () => {
    expect(shouldRetryRead(0, apiError(429, MAX_SILENT_RETRY_AFTER_S))).toBe(true);
    expect(shouldRetryRead(0, apiError(429, MAX_SILENT_RETRY_AFTER_S + 1))).toBe(false);
  });
});

describe('how long to wait', () => {
  it('grows exponentially, capped, with jitter between half and the full step', () => {
    const error = apiError(503);
    expect(retryDelayMs(0, error, () => 0)).toBe(BASE_DELAY_MS / 2);
    expect(retryDelayMs(0, error, () => 1)).toBe(BASE_DELAY_MS);
    expect(retryDelayMs(2, error, () => 1)).toBe(BASE_DELAY_MS * 4);
    expect(retryDelayMs(20, error, () => 1)).toBe(MAX_DELAY_MS);
    expect(retryDelayMs(20, error, () => 0)).toBe(MAX_DELAY_MS / 2);
  });

  it('never retries sooner than Retry-After', () => {
    expect(retryDelayMs(0, apiError(429, 5), () => 0)).toBe(5000);
    expect(retryDelayMs(0, apiError(429, 5), () => 1)).toBeLessThanOrEqual(5250);
  });
});

describe('withReadRetry (reads made outside TanStack Query)', () => {
  it('retries a 503 and returns the later success, waiting by the policy', async () => {
    const waits: number[] = [];
    let attempts = 0;
    const value = await withReadRetry(
      async () => {
        attempts++;
        if (attempts < 3) throw apiError(503);
        return 'done';
      },
      undefined,
      async (ms) => {
        waits.push(ms);
      },
    );
    expect(value).toBe('done');
    expect(attempts).toBe(3);
    expect(waits).toHaveLength(2);
  });

  it.each([
    { status: 500, when: 'after three retries', attempts: 4 },
    { status: 400, when: 'at once', attempts: 1 },
  ])('gives up on a $status $when', async ({ status, attempts: expected }) => {
    let attempts = 0;
    await expect(
      withReadRetry(
        async () => {
          attempts++;
          throw apiError(status);
        },
        undefined,
        async () => {},
      ),
    ).rejects.toBeInstanceOf(ApiError);
    expect(attempts).toBe(expected);
  });
});

function wrapper() {
  const client = createQueryClient();
  client.setDefaultOptions({
    ...client.getDefaultOptions(),
    queries: { ...client.getDefaultOptions().queries, retryDelay: 1 },
  });
  return ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client }, children);
}

describe('the dashboard query client', () => {
  it('retries a read through 503s and shows the data', async () => {
    let calls = 0;
    stubFetch(() => (++calls < 3 ? fail(503, 'busy') : ok({ value: 1 })));
    const { result } = renderHook(
      () => useQuery({ queryKey: ['t'], queryFn: () => getJson('/x', z.object({ value: z.number() })) }),
      { wrapper: wrapper() },
    );
    await waitFor(() => expect(result.current.data).toEqual({ value: 1 }));
    expect(calls).toBe(3);
  });

  it('does not retry a 403 read', async () => {
    const { fetchMock } = stubFetch(() => fail('upstream_scope_missing'));
    const { result } = renderHook(
      () => useQuery({ queryKey: ['t'], queryFn: () => getJson('/x', z.unknown()) }),
      {
        wrapper: wrapper(),
      },
    );
    await waitFor(() => expect(result.current.error).toBeInstanceOf(ApiError));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('never retries a mutation, even on a 503', async () => {
    const { fetchMock } = stubFetch(() => fail(503, 'busy'));
    const { result } = renderHook(
      () => useMutation({ mutationFn: () => request('/send', z.unknown(), { method: 'POST', body: {} }) }),
      { wrapper: wrapper() },
    );
    await act(async () => {
      await result.current.mutateAsync().catch(() => {});
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
