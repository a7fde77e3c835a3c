import { type AnswerFailure, readAnswer } from '@review-desk/shared/answer';
import {
  AUTH_REQUIRED_HEADER,
  AUTH_REQUIRED_SESSION,
  CSRF_HEADER,
  CSRF_HEADER_VALUE,
} from '@review-desk/shared/bff';
import type { z } from '@review-desk/shared/zod';
import { ApiError, isAbortError, NetworkError } from './api-error.ts';
import { notifyAuthRequired } from './auth-events.ts';
import { inLocation } from './location.ts';

// The one fetch wrapper: same-origin credentials, the BFF's CSRF header on every call, envelopes
// read with the shared schemas (a malformed answer becomes an ApiError, never a crash), and the
// BFF's "session required" 401 turned into a sign-in redirect. Calls that belong to a location
// go to the page load's location (lib/location.ts).

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Serialised as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The login call answers 401 for wrong credentials: that is not a lost session. */
  skipAuthRedirect?: boolean;
};

export type HttpResult<T> = { data: T; headers: Headers; status: number };

export async function request<S extends z.core.$ZodType>(
  path: string,
  schema: S,
  options: RequestOptions = {},
): Promise<HttpResult<z.output<S>>> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    [CSRF_HEADER]: CSRF_HEADER_VALUE,
    ...options.headers,
  };
  if (options.body !== undefined) headers['content-type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(inLocation(path), {
      method: options.method ?? 'GET',
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (isAbortError(error)) throw error;
    throw new NetworkError(error);
  }

  const result = await readAnswer(response, schema);
  if (result.ok) return { data: result.data, headers: result.headers, status: result.status };

  const authRequired =
    result.status === 401 && response.headers.get(AUTH_REQUIRED_HEADER) === AUTH_REQUIRED_SESSION;
  if (authRequired && !options.skipAuthRedirect) notifyAuthRequired();
  throw await apiError(result, authRequired);
}

/**
 * A failed answer as an ApiError, its code looked up in the shared error table. The table loads
 * with the first failure (it is not needed to show a page); if it cannot be fetched, the
 * connection is failing, and the failure is one.
 */
async function apiError(answer: AnswerFailure, authRequired: boolean): Promise<ApiError | NetworkError> {
  let errors: typeof import('@review-desk/shared/errors');
  try {
    errors = await import('@review-desk/shared/errors');
  } catch (error) {
    return new NetworkError(error);
  }
  const failure = { ...answer, code: errors.isErrorCode(answer.code) ? answer.code : null };
  return new ApiError(failure, authRequired, errors.failureInfo(failure));
}

/** GET returning only the parsed data. */
export async function getJson<S extends z.core.$ZodType>(
  path: string,
  schema: S,
  signal?: AbortSignal,
): Promise<z.output<S>> {
  return (await request(path, schema, { signal })).data;
}

export function withQuery(path: string, params: URLSearchParams): string {
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}
