import { retryAfterMs } from '@review-desk/server/backoff';
import type { z } from 'zod';
import type { GoogleConfig } from './config.ts';
import {
  apiErrorSchema,
  GOOGLE_PAGE_SIZE,
  type ListReviews,
  listReviewsSchema,
  reviewReplySchema,
  tokenErrorSchema,
  tokenSchema,
} from './wire.ts';

// The calls to Google: an access token from the refresh token (OAuth 2.0 token endpoint), a page
// of a location's reviews, a reply put and deleted (Business Profile API v4), each at its
// configured base URL (GOOGLE_TOKEN_URL, GOOGLE_API_BASE). Every call resolves with what came of
// it, never throws: the callers decide what a refusal means (an owner to ask, a back-off).

export type GoogleCall<T> =
  | { kind: 'ok'; value: T }
  /** Google answered no: `auth` for 401/403 and a refused refresh token (the owner must act). */
  | { kind: 'refused'; status: number; message: string; auth: boolean; retryAfterMs: number | null }
  /** Nothing reached Google (no connection). */
  | { kind: 'unreachable'; message: string }
  /** The call may have reached Google but no answer came (timeout, connection cut). */
  | { kind: 'lost'; message: string };

export type AccessToken = { token: string; expiresAt: number };

/** Errors raised before a connection exists: the call cannot have reached Google. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

async function exchange<S extends z.ZodType>(
  url: string,
  init: RequestInit,
  timeoutMs: number,
  schema: S | null,
  refusal: (status: number, body: unknown) => { message: string; auth: boolean },
): Promise<GoogleCall<z.output<S> | null>> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const code = ((error as { cause?: { code?: string } }).cause?.code ?? '') as string;
    if (NOT_CONNECTED.has(code))
      return { kind: 'unreachable', message: `Google could not be reached (${code}).` };
    const timeout = (error as Error).name === 'TimeoutError';
    return {
      kind: 'lost',
      message: timeout
        ? `Google did not answer within ${timeoutMs} ms.`
        : 'The connection to Google was cut before it answered.',
    };
  }
  let body: unknown;
  try {
    const text = await response.text();
    body = text === '' ? {} : JSON.parse(text);
  } catch {
    if (response.ok) return { kind: 'lost', message: 'Google answered with something other than JSON.' };
    body = undefined;
  }
  if (response.ok) {
    if (schema === null) return { kind: 'ok', value: null };
    const parsed = schema.safeParse(body);
    if (parsed.success) return { kind: 'ok', value: parsed.data };
    return { kind: 'lost', message: 'Google answered in a shape this service cannot read.' };
  }
  const { message, auth } = refusal(response.status, body);
  return {
    kind: 'refused',
    status: response.status,
    message,
    auth,
    retryAfterMs: retryAfterMs(response.headers.get('retry-after'), Date.now()),
  };
}

/** A Google API's refusal: its own message; 401 and 403 need the owner. */
function apiRefusal(status: number, body: unknown) {
  const parsed = apiErrorSchema.safeParse(body);
  const message = parsed.success && parsed.data.error.message ? parsed.data.error.message : `HTTP ${status}`;
  return { message: message.slice(0, 500), auth: status === 401 || status === 403 };
}

export function createGoogleClient(config: GoogleConfig) {
  const base = config.apiBase;
  const reviewsOf = (account: string, location: string) =>
    `${base}/v4/accounts/${encodeURIComponent(account)}/locations/${encodeURIComponent(location)}/reviews`;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}`, accept: 'application/json' });

  return {
    configured: config.client !== null,
    timeoutMs: config.timeoutMs,

    /** A fresh access token for the refresh token (the `refresh_token` grant). */
    async token(refreshToken: string, now: number): Promise<GoogleCall<AccessToken>> {
      const client = config.client;
      if (!client)
        return {
          kind: 'refused',
          status: 0,
          message: 'GOOGLE_CLIENT_ID is not set.',
          auth: false,
          retryAfterMs: null,
        };
      const form = new URLSearchParams({
        client_id: client.id,
        client_secret: client.secret,
        refresh_token: refreshToken,
        grant_type: 'refresh_token',
      });
      const result = await exchange(
        config.tokenUrl,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: form.toString(),
        },
        config.timeoutMs,
        tokenSchema,
        (status, body) => {
          const parsed = tokenErrorSchema.safeParse(body);
          const error = parsed.success ? parsed.data.error : `HTTP ${status}`;
          const description =
            parsed.success && parsed.data.error_description ? `: ${parsed.data.error_description}` : '';
          // invalid_grant: the refresh token is revoked, expired or another client's — only its owner can help.
          return { message: `${error}${description}`.slice(0, 500), auth: error === 'invalid_grant' };
        },
      );
      if (result.kind !== 'ok' || result.value === null) return result as GoogleCall<AccessToken>;
      return {
        kind: 'ok',
        value: { token: result.value.access_token, expiresAt: now + result.value.expires_in * 1000 },
      };
    },

    /** One page of the location's reviews, newest update first. */
    async listReviews(
      token: string,
      account: string,
      location: string,
      pageToken: string | null,
    ): Promise<GoogleCall<ListReviews>> {
      const query = new URLSearchParams({ pageSize: String(GOOGLE_PAGE_SIZE), orderBy: 'updateTime desc' });
      if (pageToken) query.set('pageToken', pageToken);
      const result = await exchange(
        `${reviewsOf(account, location)}?${query}`,
        { headers: bearer(token) },
        config.timeoutMs,
        listReviewsSchema,
        apiRefusal,
      );
      return result as GoogleCall<ListReviews>;
    },

    /** accounts.locations.reviews.updateReply: creates or replaces the reply. */
    async putReply(token: string, account: string, location: string, reviewId: string, comment: string) {
      const result = await exchange(
        `${reviewsOf(account, location)}/${encodeURIComponent(reviewId)}/reply`,
        {
          method: 'PUT',
          headers: { ...bearer(token), 'content-type': 'application/json' },
          body: JSON.stringify({ comment }),
        },
        config.timeoutMs,
        reviewReplySchema,
        apiRefusal,
      );
      return result as GoogleCall<z.output<typeof reviewReplySchema>>;
    },

    /** accounts.locations.reviews.deleteReply. */
    async deleteReply(token: string, account: string, location: string, reviewId: string) {
      return exchange(
        `${reviewsOf(account, location)}/${encodeURIComponent(reviewId)}/reply`,
        { method: 'DELETE', headers: bearer(token) },
        config.timeoutMs,
        null,
        apiRefusal,
      );
    },
  };
}
export type GoogleClient = ReturnType<typeof createGoogleClient>;
