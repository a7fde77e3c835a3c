import { randomUUID } from 'node:crypto';
import { AppError } from '@review-desk/server/errors';
import { holdsKey, type PathRedaction, redactUrl } from '@review-desk/server/log';
import type { Refusal } from '@review-desk/server/serve';
import {
  API_KEY_HEADER,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_REPLAYED_HEADER,
  JSON_BODY_LIMIT_BYTES,
  KEY_QUERY_PARAMS,
  MESSAGES,
  type Scope,
} from '@review-desk/shared';
import express, { type RequestHandler } from 'express';
import { lookupApiKey } from '../accounts/keys.ts';
import type { AppContext } from '../context.ts';

// The middleware, in the order a request meets them: request id → logging → security headers →
// CORS → credentials → rate limit → (per route) Origin rule → auth → body → handler → errors.

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The caller's request id when it is a sane one, else a new one. */
export function requestIdOf(given: string | string[] | undefined): string {
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

export function requestId(): RequestHandler {
  return (req, res, next) => {
    req.id = requestIdOf(req.headers['x-request-id']);
    res.setHeader('x-request-id', req.id);
    next();
  };
}

/** Secrets in the service's own paths: the review link's token (docs/api.md, The customer page). */
export const LOGGED_PATH_REDACTIONS: readonly PathRedaction[] = [
  { pattern: /^\/r\/[^/?#]+/, replacement: '/r/[token]' },
];

/** One line per answer (the URL without its secrets), and the request metrics by route. */
export function requestLogging(ctx: AppContext): RequestHandler {
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const entry = {
        reqId: req.id,
        method: req.method,
        url: redactUrl(req.originalUrl, LOGGED_PATH_REDACTIONS),
        status: res.statusCode,
        ms: Math.round(seconds * 100_000) / 100,
        ...(req.apiKey ? { keyId: req.apiKey.id, business: req.apiKey.business.slug } : {}),
      };
      if (res.statusCode >= 500) ctx.logger.error(entry, 'request');
      else ctx.logger.info(entry, 'request');
      const route = req.route?.path;
      ctx.metrics.observeRequest(
        typeof route === 'string' ? route : 'other',
        req.method,
        res.statusCode,
        seconds,
      );
    });
    next();
  };
}

/** The line for a request refused before Express saw it (no Host, an unknown Expect, unparsable). */
export function logRefusal(ctx: AppContext, refusal: Refusal): void {
  ctx.logger.info(
    {
      method: refusal.method,
      url: redactUrl(refusal.url, LOGGED_PATH_REDACTIONS),
      status: refusal.status,
      code: refusal.code,
    },
    'request',
  );
  ctx.metrics.observeRequest('refused', refusal.method, refusal.status, 0);
}

/** The headers every answer starts with (a route may then loosen or replace some). */
export function securityHeaderValues(ctx: AppContext): Readonly<Record<string, string>> {
  return {
    'x-content-type-options': 'nosniff',
    // Review links carry a secret token: never leak it to the next site through Referer.
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    // JSON answers need nothing; HTML routes set their own policy.
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cache-control': 'no-store',
    ...(ctx.config.publicOrigin?.startsWith('https://')
      ? { 'strict-transport-security': 'max-age=31536000' }
      : {}),
  };
}

export function securityHeaders(ctx: AppContext): RequestHandler {
  const headers = securityHeaderValues(ctx);
  return (_req, res, next) => {
    for (const name in headers) res.setHeader(name, headers[name] as string);
    next();
  };
}

const CORS_ALLOW_HEADERS = [
  'content-type',
  API_KEY_HEADER,
  'authorization',
  'x-request-id',
  IDEMPOTENCY_KEY_HEADER,
].join(', ');
const CORS_EXPOSE_HEADERS = [
  'x-request-id',
  'retry-after',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'ratelimit-policy',
  IDEMPOTENCY_REPLAYED_HEADER,
].join(', ');

/**
 * docs/api.md: an exact allow-list (CORS_ORIGINS). An allowed origin is echoed, never `*`; keys
 * travel in headers, not cookies, so no credentials mode is offered. A disallowed origin gets no
 * CORS headers, so the browser refuses to hand the answer to the page.
 */
export function cors(ctx: AppContext): RequestHandler {
  const allowed = new Set(ctx.config.corsOrigins);
  return (req, res, next) => {
    res.vary('Origin');
    const origin = req.get('origin');
    const ok = origin !== undefined && allowed.has(origin);
    if (ok) {
      res.set('access-control-allow-origin', origin);
      res.set('access-control-expose-headers', CORS_EXPOSE_HEADERS);
    }
    if (req.method === 'OPTIONS' && req.get('access-control-request-method')) {
      if (ok) {
        res.set({
          'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE',
          'access-control-allow-headers': CORS_ALLOW_HEADERS,
          'access-control-max-age': '600',
        });
      }
      res.status(204).end();
      return;
    }
    next();
  };
}

/** The key from `X-API-Key` or `Authorization: Bearer` (docs/api.md), or undefined. */
export function presentedKey(req: express.Request): string | undefined {
  const header = req.get(API_KEY_HEADER);
  if (header !== undefined && header.trim() !== '') return header.trim();
  const authorization = req.get('authorization');
  const match = authorization?.match(/^Bearer[ \t]+(\S+)\s*$/i);
  return match?.[1];
}

/**
 * Refuses a key in the query string (it would end up in logs and browser history) — under a
 * key's parameter name, or anything that looks like a key as a parameter's name or value — and
 * never repeats it in the answer. Then looks up the presented key; decisions (401/403) wait for
 * requireScope, after the rate limit.
 */
export function credentials(ctx: AppContext): RequestHandler {
  const keyParams = new Set<string>(KEY_QUERY_PARAMS.map((p) => p.toLowerCase()));
  return async (req, _res, next) => {
    const q = req.originalUrl.indexOf('?');
    if (q !== -1) {
      const query = req.originalUrl.slice(q + 1);
      if (holdsKey(query)) throw new AppError('key_in_query');
      for (const [name] of new URLSearchParams(query)) {
        if (keyParams.has(name.toLowerCase())) throw new AppError('key_in_query');
      }
    }
    const key = presentedKey(req);
    req.credentials = {
      presented: key !== undefined,
      lookup: key === undefined ? undefined : await lookupApiKey(ctx.store, key, ctx.now()),
    };
    next();
  };
}

/** Per-key limit; RATE_LIMIT_PER_MINUTE=0 turns limiting off, a key's own limit overrides the default. */
export function rateLimit(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    const lookup = req.credentials?.lookup;
    if (ctx.config.rateLimitPerMinute === 0 || !lookup?.ok) return next();
    const limit = lookup.key.rateLimitPerMinute ?? ctx.config.rateLimitPerMinute;
    const decision = await ctx.rateLimiter.check(lookup.key.id, limit, ctx.now());
    res.set({
      'ratelimit-limit': String(decision.limit),
      'ratelimit-remaining': String(decision.remaining),
      'ratelimit-reset': String(decision.resetSeconds),
      'ratelimit-policy': `${decision.limit};w=60`,
    });
    if (!decision.allowed) {
      throw new AppError('rate_limited', MESSAGES.rateLimited(decision.retryAfterSeconds), {
        headers: { 'retry-after': String(decision.retryAfterSeconds) },
      });
    }
    next();
  };
}

/**
 * docs/api.md: a POST without an Origin header, or with one that is not the application's, gets
 * 403. Accepted: PUBLIC_ORIGIN, ALLOWED_ORIGINS and the CORS allow-list (origins trusted to call
 * from a browser). CSRF_EXEMPT_API_KEYS=true exempts calls that carry an API key (the API's
 * "deployments may exempt /api/v1 API-key traffic").
 */
export function originRule(ctx: AppContext): RequestHandler {
  const extra = new Set([...ctx.config.allowedOrigins, ...ctx.config.corsOrigins]);
  return (req, _res, next) => {
    if (ctx.config.csrfExemptApiKeys && req.credentials?.presented) return next();
    const origin = req.get('origin');
    if (origin === undefined || (origin !== ctx.site.publicOrigin && !extra.has(origin))) {
      throw new AppError('origin_refused');
    }
    next();
  };
}

/** docs/api.md: 401 for a missing, unknown, revoked or expired key; 403 without scope or business. */
/** `alsoAccepted`: scopes that grant the same access (a sender may read back what it sent). */
export function requireScope(
  ctx: AppContext,
  scope: Scope,
  alsoAccepted: readonly Scope[] = [],
): RequestHandler {
  return (req, _res, next) => {
    const creds = req.credentials;
    if (!creds?.presented) throw new AppError('key_missing');
    const lookup = creds.lookup;
    if (!lookup?.ok) throw new AppError('key_invalid');
    if (!lookup.key.scopes.includes(scope) && !alsoAccepted.some((s) => lookup.key.scopes.includes(s)))
      throw new AppError('scope_missing', MESSAGES.scopeMissing(scope));
    if (lookup.key.business.suspended_at !== null) throw new AppError('business_suspended');
    req.apiKey = lookup.key;
    ctx.keyUsage.record(lookup.key.id, ctx.now());
    next();
  };
}

/** JSON bodies only (415 otherwise), at most JSON_BODY_LIMIT_BYTES (413), well-formed (400). */
export function jsonBody(): RequestHandler[] {
  const parse = express.json({ limit: JSON_BODY_LIMIT_BYTES, type: () => true, strict: true });
  return [
    (req, _res, next) => {
      // docs/api.md: "Request header Content-Type: application/json", with or without a body.
      const [typePart, ...params] = (req.get('content-type') ?? '').toLowerCase().split(';');
      const type = typePart!.trim();
      if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
        throw new AppError('not_json');
      }
      // JSON is UTF-8 (RFC 8259 §8.1); another declared charset is not JSON this service reads.
      const charset = params.map((p) => p.trim()).find((p) => p.startsWith('charset='));
      if (charset && !/^charset="?utf-8"?$/.test(charset)) throw new AppError('not_json');
      next();
    },
    parse,
    (req, _res, next) => {
      if (req.body === undefined) req.body = {};
      next();
    },
  ];
}
