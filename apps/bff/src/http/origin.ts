import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { AppError } from '@review-desk/server/errors';
import { BFF_PATHS, CSRF_HEADER, CSRF_HEADER_VALUE } from '@review-desk/shared';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Gate } from './gate.ts';

// Who is calling: the Host the request was sent to, same-origin, CORS and CSRF.
// With PUBLIC_URL set, the dashboard's origin is that one and no other: a request addressed to
// another Host is refused (DNS rebinding: a page on evil.example whose name resolves to this
// server would otherwise be same-origin with it), and only PUBLIC_URL is same-origin. Without it
// (the local demo), the origin is the one the request names: scheme + Host, X-Forwarded-* only
// when TRUST_PROXY trusts the peer — which main.ts says at start.

/** Express's compiled `trust proxy` setting: whether the peer at `address` may speak for the client. */
export type TrustProxy = (address: string | undefined, hop: number) => boolean;

export type OriginPolicy = {
  allowedOrigins: ReadonlySet<string>;
  publicOrigin: string | null;
  trust: TrustProxy;
};

const firstValue = (value: string) => {
  const comma = value.indexOf(',');
  return comma === -1 ? value.trim() : value.slice(0, comma).trim();
};

/** The scheme the client used: the socket's, or X-Forwarded-Proto from a trusted proxy (as Express's req.protocol). */
export function requestScheme(req: IncomingMessage, trust: TrustProxy): string {
  const own = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  if (!trust(req.socket.remoteAddress, 0)) return own;
  const forwarded = req.headers['x-forwarded-proto'];
  return typeof forwarded === 'string' && forwarded !== '' ? firstValue(forwarded) : own;
}

/** The host the client addressed: Host, or X-Forwarded-Host from a trusted proxy (as Express's req.host). */
export function requestHost(req: IncomingMessage, trust: TrustProxy): string | undefined {
  const forwarded = req.headers['x-forwarded-host'];
  if (typeof forwarded === 'string' && forwarded !== '' && trust(req.socket.remoteAddress, 0))
    return firstValue(forwarded);
  return req.headers.host || undefined;
}

/** Whether `origin` is the dashboard's own origin for this request. */
export function isSameOrigin(req: IncomingMessage, origin: string, policy: OriginPolicy): boolean {
  if (policy.publicOrigin !== null) return origin === policy.publicOrigin;
  return origin === `${requestScheme(req, policy.trust)}://${requestHost(req, policy.trust)}`;
}

/** Probes and scrapers address the server by its own address: these carry no session and no data. */
const OPERATIONAL = new Set<string>([BFF_PATHS.healthz, BFF_PATHS.readyz, BFF_PATHS.metrics]);

/** `host[:port]` lower-cased, without the scheme's default port. */
function normaliseHost(host: string, scheme: string): string {
  const lower = host.toLowerCase();
  const port = scheme === 'https:' ? ':443' : ':80';
  return lower.endsWith(port) ? lower.slice(0, -port.length) : lower;
}

/** Gate: with PUBLIC_URL set, a request addressed to another Host is refused (DNS rebinding). */
export function publicHost(policy: OriginPolicy): Gate {
  if (policy.publicOrigin === null) return () => null;
  const publicUrl = new URL(policy.publicOrigin);
  const expected = normaliseHost(publicUrl.host, publicUrl.protocol);
  const refusal = new AppError(
    'host_refused',
    `This server answers only at ${policy.publicOrigin}: the request was addressed to another host.`,
  );
  return (req) => {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    if (OPERATIONAL.has(q === -1 ? url : url.slice(0, q))) return null;
    const host = requestHost(req, policy.trust);
    if (host !== undefined && normaliseHost(host, publicUrl.protocol) === expected) return null;
    req.ctx.route = 'wrong-host';
    return refusal;
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const EXPOSED =
  'X-Request-Id, Retry-After, RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Idempotency-Replayed, X-Auth-Required';
const ALLOWED_HEADERS = `Content-Type, ${CSRF_HEADER}, Idempotency-Key, Accept, Accept-Language`;
const ALLOWED_METHODS = 'GET, POST, PATCH, DELETE';

/**
 * Gate: CORS for a separately hosted dashboard (ALLOWED_ORIGINS, exact match): credentials
 * allowed, Vary: Origin. Any other foreign origin gets no CORS headers *and* its state-changing
 * requests and preflights are refused here (hiding the response, as the cors package does, would
 * not stop the write). An allowed origin's preflight is answered by `answerPreflight`.
 */
export function crossOrigin(policy: OriginPolicy): Gate {
  const refusal = new AppError('origin_refused', 'Cross-origin request refused: this origin is not allowed.');
  return (req, res) => {
    const vary = res.getHeader('vary');
    res.setHeader('vary', vary === undefined ? 'Origin' : `${vary}, Origin`);
    const origin = req.headers.origin;
    if (origin === undefined) return null;
    if (policy.allowedOrigins.has(origin)) {
      res.setHeader('access-control-allow-origin', origin);
      res.setHeader('access-control-allow-credentials', 'true');
      res.setHeader('access-control-expose-headers', EXPOSED);
      return null;
    }
    if (isSameOrigin(req, origin, policy)) return null;
    if (SAFE_METHODS.has(req.method ?? '') && req.headers['access-control-request-method'] === undefined)
      return null;
    req.ctx.route = 'cross-origin';
    return refusal;
  };
}

/** An allowed origin's preflight (after the gates, before any route): 204 with what it may send. */
export function answerPreflight(policy: OriginPolicy): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (
      req.method !== 'OPTIONS' ||
      req.headers['access-control-request-method'] === undefined ||
      origin === undefined ||
      !policy.allowedOrigins.has(origin)
    ) {
      next();
      return;
    }
    req.ctx.route = 'preflight';
    res.setHeader('access-control-allow-methods', ALLOWED_METHODS);
    res.setHeader('access-control-allow-headers', ALLOWED_HEADERS);
    res.setHeader('access-control-max-age', '600');
    res.statusCode = 204;
    res.end();
  };
}

const REFUSED_TYPES = new Set(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']);

/** Whether CSRF refuses this Content-Type (the body types an HTML form or a simple fetch can send). */
function isRefusedBodyType(type: string | undefined): boolean {
  if (type === undefined) return false;
  return REFUSED_TYPES.has(type.split(';', 1)[0]?.trim().toLowerCase() ?? '');
}

/**
 * Why CSRF refuses a request with these headers, or null when it passes:
 * 1. the custom header X-CSRF: 1, which a cross-site page cannot send without a CORS preflight;
 * 2. a same-origin (or allowed) Origin, or, without Origin, Sec-Fetch-Site: same-origin —
 *    a request with neither is refused;
 * 3. no body type that an HTML form or a "simple" cross-site fetch can send.
 */
function csrfRefusal(
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

/** Gate: CSRF for the BFF's state-changing routes (login, logout, send, user management). */
export function csrf(policy: OriginPolicy): Gate {
  return (req) => {
    const refusal = csrfRefusal(req.headers, (origin) => isSameOrigin(req, origin, policy), policy);
    return refusal === null ? null : new AppError('csrf_refused', refusal);
  };
}
