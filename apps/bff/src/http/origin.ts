import type { IncomingHttpHeaders } from 'node:http';
import { AppError, sendError } from '@review-desk/server/errors';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@review-desk/shared';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

// Same-origin, CORS and CSRF: the three questions about who is calling.
// "Same origin" is the origin the browser used to reach us: scheme + Host (X-Forwarded-* only
// when TRUST_PROXY says so), or PUBLIC_URL when configured.

export type OriginPolicy = {
  allowedOrigins: ReadonlySet<string>;
  publicOrigin: string | null;
};

export function ownOrigin(req: Request): string {
  return `${req.protocol}://${req.host}`;
}

export function isSameOrigin(req: Request, origin: string, policy: OriginPolicy): boolean {
  return origin === policy.publicOrigin || origin === ownOrigin(req);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const EXPOSED =
  'X-Request-Id, Retry-After, RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Idempotency-Replayed, X-Auth-Required';
const ALLOWED_HEADERS = `Content-Type, ${CSRF_HEADER}, Idempotency-Key, Accept, Accept-Language`;
const ALLOWED_METHODS = 'GET, POST, PATCH, DELETE';

/**
 * CORS for a separately hosted dashboard (ALLOWED_ORIGINS, exact match): credentials allowed,
 * Vary: Origin. Any other foreign origin gets no CORS headers *and* its state-changing requests
 * are refused here (hiding the response, as the cors package does, would not stop the write).
 */
export function corsPolicy(policy: OriginPolicy): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('vary', 'Origin');
    const origin = req.headers.origin;
    if (origin === undefined) {
      next();
      return;
    }
    if (policy.allowedOrigins.has(origin)) {
      res.setHeader('access-control-allow-origin', origin);
      res.setHeader('access-control-allow-credentials', 'true');
      res.setHeader('access-control-expose-headers', EXPOSED);
      if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
        req.ctx.route = 'preflight';
        res.setHeader('access-control-allow-methods', ALLOWED_METHODS);
        res.setHeader('access-control-allow-headers', ALLOWED_HEADERS);
        res.setHeader('access-control-max-age', '600');
        res.statusCode = 204;
        res.end();
        return;
      }
      next();
      return;
    }
    if (isSameOrigin(req, origin, policy)) {
      next();
      return;
    }
    if (!SAFE_METHODS.has(req.method) || req.headers['access-control-request-method'] !== undefined) {
      req.ctx.route = 'cross-origin';
      sendError(
        res,
        new AppError('origin_refused', 'Cross-origin request refused: this origin is not allowed.'),
      );
      return;
    }
    next();
  };
}

const REFUSED_TYPES = new Set(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']);

/** Whether CSRF refuses this Content-Type (the body types an HTML form or a simple fetch can send). */
function isRefusedBodyType(type: string | undefined): boolean {
  if (type === undefined) return false;
  return REFUSED_TYPES.has(type.split(';', 1)[0]?.trim().toLowerCase() ?? '');
}

/**
 * CSRF for the BFF's own state-changing routes (login, logout, send, user management):
 * 1. the custom header X-CSRF: 1, which a cross-site page cannot send without a CORS preflight;
 * 2. a same-origin (or allowed) Origin, or, without Origin, Sec-Fetch-Site: same-origin —
 *    a request with neither is refused;
 * 3. no body type that an HTML form or a "simple" cross-site fetch can send.
 * Returns why the request is refused, or null when it passes. `isOwnOrigin` says whether an
 * Origin is the one the browser used to reach this server.
 */
export function csrfRefusal(
  headers: IncomingHttpHeaders,
  isOwnOrigin: (origin: string) => boolean,
  policy: OriginPolicy,
): string | null {
  if (headers[CSRF_HEADER] !== CSRF_HEADER_VALUE)
    return `Forbidden: this request needs the ${CSRF_HEADER.toUpperCase()}: ${CSRF_HEADER_VALUE} header.`;
  const origin = headers.origin;
  const site = headers['sec-fetch-site'];
  if (origin !== undefined) {
    const allowed = isOwnOrigin(origin) || policy.allowedOrigins.has(origin);
    if (!allowed || (site === 'cross-site' && !policy.allowedOrigins.has(origin)))
      return 'Forbidden: cross-site request refused.';
  } else if (site !== 'same-origin') {
    return 'Forbidden: the request has neither a same-origin Origin nor Sec-Fetch-Site: same-origin.';
  }
  if (isRefusedBodyType(headers['content-type']))
    return 'Forbidden: form and text bodies are refused; send JSON (Content-Type: application/json).';
  return null;
}

/** The CSRF check of csrfRefusal as Express middleware: 403 envelope with the reason. */
export function csrfProtection(policy: OriginPolicy): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const refusal = csrfRefusal(req.headers, (origin) => isSameOrigin(req, origin, policy), policy);
    if (refusal !== null) {
      sendError(res, new AppError('csrf_refused', refusal));
      return;
    }
    next();
  };
}
