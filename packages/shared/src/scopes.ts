// docs/api.md: each endpoint enforces one scope. `settings:read` and `settings:write` are the
// extension's (GET/PUT /api/v1/settings, settings.ts), and so is `review_requests:read`
// (GET /api/v1/requests, requests.ts; a key with review_requests:write may read them too), and
// `reviews:reply` (answering, ignoring and reopening reviews: review-reply.ts); `widget:read` and
// `widget:write` (the website widget's owner calls, widget.ts).
export const SCOPES = [
  'review_requests:write',
  'reviews:read',
  'analytics:read',
  'settings:read',
  'settings:write',
  'review_requests:read',
  'reviews:reply',
  // Webhook endpoints (webhooks.ts): create, list, rotate, remove and their deliveries.
  'webhooks:write',
  'widget:read',
  'widget:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/** The three operations of the API (docs/api.md), their exact paths, methods and scopes. */
export const ENDPOINTS = {
  send: { method: 'POST', path: '/api/v1/requests/send', scope: 'review_requests:write' },
  reviews: { method: 'GET', path: '/api/v1/reviews', scope: 'reviews:read' },
  analytics: { method: 'GET', path: '/api/v1/analytics', scope: 'analytics:read' },
} as const satisfies Record<string, { method: 'GET' | 'POST'; path: string; scope: Scope }>;
export type EndpointName = keyof typeof ENDPOINTS;

export const API_PREFIX = '/api/v1';

/** docs/api.md: the two header forms that carry the key. */
export const API_KEY_HEADER = 'x-api-key';
export const AUTH_SCHEMES = ['x-api-key', 'bearer'] as const;
export type AuthScheme = (typeof AUTH_SCHEMES)[number];

/**
 * docs/api.md: "Keys carry a fixed service-specific prefix followed by the secret part."
 * Ours is `rd_live_` + 43 base64url characters (32 random bytes).
 */
export const API_KEY_PREFIX = 'rd_live_';
export const API_KEY_SECRET_BYTES = 32;
export const API_KEY_PATTERN = /^rd_live_[A-Za-z0-9_-]{43}$/;

/** Query parameters that look like an API key: refused (400) and never logged. */
export const KEY_QUERY_PARAMS = ['api_key', 'apikey', 'apiKey', 'key', 'access_token', 'token'] as const;
