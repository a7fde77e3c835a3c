import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { API_KEY_HEADER } from '@review-desk/shared';
import type { Upstream } from '../env.ts';

// What crosses the BFF in each direction is an allow-list, built here and nowhere else.
// Upstream-bound headers are *constructed*, not filtered: nothing of the browser's request goes
// upstream except Accept-Language, so its Cookie, Authorization, X-API-Key, Sec-Fetch-*, Referer,
// Forwarded/X-Forwarded-*, hop-by-hop and any unknown header can never arrive.

const USER_AGENT = 'review-desk-bff/0.1';
const ACCEPT_LANGUAGE = /^[A-Za-z0-9*,;=. -]{1,200}$/;

export type UpstreamHeaderOptions = {
  method: 'GET' | 'POST';
  requestId: string;
  acceptLanguage?: string | string[] | undefined;
  /** POST only: length of the body that will be written. */
  contentLength?: number;
};

export function createUpstreamHeaders(upstream: Upstream) {
  // The key goes in X-API-Key or as Authorization: Bearer (docs/api.md, "Keys").
  const auth: [string, string] =
    upstream.authScheme === 'bearer'
      ? ['authorization', `Bearer ${upstream.key}`]
      : [API_KEY_HEADER, upstream.key];
  const host = upstream.url.host;

  return function upstreamHeaders(options: UpstreamHeaderOptions): OutgoingHttpHeaders {
    const headers: OutgoingHttpHeaders = {
      host,
      accept: 'application/json',
      'accept-encoding': 'identity',
      'user-agent': USER_AGENT,
      'x-request-id': options.requestId,
      [auth[0]]: auth[1],
    };
    const language = options.acceptLanguage;
    if (typeof language === 'string' && ACCEPT_LANGUAGE.test(language)) headers['accept-language'] = language;
    if (options.method === 'POST') {
      // A POST without an Origin matching the application host may get 403 (docs/api.md).
      headers.origin = upstream.origin;
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(options.contentLength ?? 0);
    }
    return headers;
  };
}
export type UpstreamHeaders = ReturnType<typeof createUpstreamHeaders>;

/**
 * Upstream response headers that reach the browser. Set-Cookie, CORS headers, Server, caching
 * and everything unknown are dropped; Retry-After and the rate-limit family are kept so the
 * dashboard can back off (429 → wait, retry with increasing delays: docs/api.md, "Limits").
 */
export function passedResponseHeaders(headers: IncomingHttpHeaders, key: string): Record<string, string> {
  const passed: Record<string, string> = {};
  for (const name in headers) {
    if (name === 'retry-after' || name.startsWith('ratelimit') || name.startsWith('x-ratelimit-')) {
      const value = headers[name];
      if (typeof value === 'string' && value.length <= 200 && !value.includes(key)) passed[name] = value;
    }
  }
  return passed;
}
