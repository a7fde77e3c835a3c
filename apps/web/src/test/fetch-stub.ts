import { ERROR_CODES, type ErrorCode } from '@review-desk/shared/errors';
import { vi } from 'vitest';

// A stand-in for the BFF inside jsdom: each call is answered by the test's handler with a real
// Response, so the real fetch wrapper, envelope reader and schemas do the work.

export type Handler = (request: Request) => Response | Promise<Response>;

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export function ok(data: unknown, headers: Record<string, string> = {}): Response {
  return json(200, { success: true, data }, headers);
}

/**
 * A failure envelope as the BFF writes it: with a code from the shared table (its status comes
 * with it). Given a bare status, the envelope has no code, like one relayed from an upstream that
 * sends none.
 */
export function fail(
  codeOrStatus: ErrorCode | number,
  error?: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  if (typeof codeOrStatus === 'number')
    return json(codeOrStatus, { success: false, error: error ?? `HTTP ${codeOrStatus}`, ...extra }, headers);
  const { status, message } = ERROR_CODES[codeOrStatus];
  return json(status, { success: false, error: error ?? message, code: codeOrStatus, ...extra }, headers);
}

export function stubFetch(handler: Handler) {
  const calls: Request[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url =
      typeof input === 'string'
        ? new URL(input, 'http://127.0.0.1')
        : input instanceof URL
          ? input
          : new URL(input.url);
    if (init?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    const request = new Request(url, init);
    calls.push(request.clone());
    return handler(request);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}
