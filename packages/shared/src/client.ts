import { type AnalyticsQuery, analyticsResultSchema, analyticsSearchParams } from './analytics.ts';
import { type ApiFailure, type ApiResponse, readAnswer } from './answer.ts';
import { isErrorCode } from './errors.ts';
import {
  isLastPage,
  type ReviewList,
  type ReviewsQuery,
  reviewListSchema,
  reviewsSearchParams,
} from './reviews.ts';
import { API_KEY_HEADER, type AuthScheme, ENDPOINTS } from './scopes.ts';
import { type SendRequestInput, sendResultSchema } from './send.ts';
import type { z } from './zod.ts';

// A small typed client for the three endpoints. It never throws for an HTTP failure: every
// answer is a discriminated result (answer.ts), so callers handle 400/401/403/429/5xx explicitly.
// Network failures (fetch rejecting) do propagate.

export type { AnswerFailure, ApiFailure, ApiResponse, ApiSuccess } from './answer.ts';
export { parseRetryAfter } from './answer.ts';

/** Reads a Response as the API's envelope (answer.ts), keeping a failure's code when it is ours. */
export async function readEnvelope<S extends z.core.$ZodType>(
  response: Response,
  dataSchema: S,
): Promise<ApiResponse<z.output<S>>> {
  const answer = await readAnswer(response, dataSchema);
  return answer.ok ? answer : { ...answer, code: isErrorCode(answer.code) ? answer.code : null };
}

export type ApiClientOptions = {
  /** Base URL of a deployment, e.g. http://127.0.0.1:4000 (no trailing /api/v1). */
  baseUrl: string;
  apiKey?: string;
  authScheme?: AuthScheme;
  /** Origin header for POSTs (docs/api.md, "The POST Origin rule"). */
  origin?: string;
  /** Extra headers on every call. */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
};

export type CallOptions = { headers?: Record<string, string>; signal?: AbortSignal };

export function createApiClient(options: ApiClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;

  function headersFor(extra?: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.apiKey) {
      if (options.authScheme === 'bearer') headers.authorization = `Bearer ${options.apiKey}`;
      else headers[API_KEY_HEADER] = options.apiKey;
    }
    return { ...headers, ...extra };
  }

  /** A GET of `path` with the query's search string (none when empty), its `data` checked by `schema`. */
  async function read<S extends z.core.$ZodType>(
    path: string,
    query: URLSearchParams,
    schema: S,
    call: CallOptions,
  ) {
    const qs = query.toString();
    const response = await doFetch(`${base}${path}${qs ? `?${qs}` : ''}`, {
      headers: headersFor(call.headers),
      signal: call.signal,
    });
    return readEnvelope(response, schema);
  }

  return {
    async send(body: SendRequestInput, call: CallOptions = {}) {
      const headers = headersFor({ 'content-type': 'application/json', ...call.headers });
      if (options.origin && !('origin' in headers)) headers.origin = options.origin;
      const response = await doFetch(`${base}${ENDPOINTS.send.path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: call.signal,
      });
      return readEnvelope(response, sendResultSchema);
    },

    reviews: (query: Partial<ReviewsQuery> = {}, call: CallOptions = {}) =>
      read(ENDPOINTS.reviews.path, reviewsSearchParams(query), reviewListSchema, call),

    analytics: (query: Partial<AnalyticsQuery> = {}, call: CallOptions = {}) =>
      read(ENDPOINTS.analytics.path, analyticsSearchParams(query), analyticsResultSchema, call),

    /**
     * Every page matching the filters, by the API's stop rule (docs/api.md). Yields each page; a
     * failure ends the walk by throwing ApiCallError.
     */
    async *walkReviews(
      query: Omit<Partial<ReviewsQuery>, 'page'> = {},
      call: CallOptions = {},
    ): AsyncGenerator<ReviewList> {
      for (let page = 1; ; page++) {
        const result = await this.reviews({ ...query, page }, call);
        if (!result.ok) throw new ApiCallError(result);
        yield result.data;
        if (isLastPage(result.data)) return;
      }
    },
  };
}
export type ApiClient = ReturnType<typeof createApiClient>;

export class ApiCallError extends Error {
  readonly failure: ApiFailure;
  constructor(failure: ApiFailure) {
    super(failure.error);
    this.name = 'ApiCallError';
    this.failure = failure;
  }
}
