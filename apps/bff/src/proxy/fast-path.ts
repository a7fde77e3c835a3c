import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, answerError, sendError } from '@review-desk/server/errors';
import { can, ENDPOINTS, type Permission } from '@review-desk/shared';
import type { Logger } from 'pino';
import { readSessionToken } from '../auth/middleware.ts';
import type { SessionStore } from '../auth/sessions.ts';
import { beginRequest, type RequestContext } from '../http/context.ts';
import { csrfRefusal, type OriginPolicy } from '../http/origin.ts';
import { DATA_HEADERS, hasBody } from '../http/security.ts';
import type { AccessLog } from '../log.ts';
import type { Metrics } from '../metrics.ts';
import type { ReadForwarder } from './reads.ts';
import type { ReadEndpoint, ReadTargets } from './routes.ts';
import type { SendHandler } from './send.ts';

// The dashboard's reads, routed before Express when every answer is already known: an exact
// GET on a read route, no Origin (same-origin reads send none), no body, a session this process
// has cached and fresh, a role that allows the route, a query string validated before. Then the
// steps the Express path would take are these, in its order — request id and access line, data
// headers, Vary, session, role, the remembered canonical target, forward — without Express's
// per-request set-up and router. Anything else (a first query, an expired or unknown session, a
// cross-origin call, any error to report) goes to Express, which answers it in full.
// The send has its own fast path below. See docs/decisions/bff-fast-path.md.

const READS: ReadonlyMap<string, { endpoint: ReadEndpoint; permission: Permission }> = new Map([
  [ENDPOINTS.reviews.path, { endpoint: 'reviews', permission: 'reviews:read' }],
  [ENDPOINTS.analytics.path, { endpoint: 'analytics', permission: 'analytics:read' }],
] as const);

export function createFastReads(deps: {
  sessions: SessionStore;
  targets: ReadTargets;
  reads: ReadForwarder;
  access: AccessLog;
  metrics: Metrics;
  logger: Logger;
}) {
  /** Handles the request and returns true, or returns false having changed nothing. */
  return function fastRead(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET') return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const route = READS.get(q === -1 ? url : url.slice(0, q));
    if (route === undefined || req.headers.origin !== undefined || hasBody(req)) return false;
    const token = readSessionToken(req);
    if (token === null) return false;
    const session = deps.sessions.peek(token);
    if (session === null || !can(session.user.role, route.permission)) return false;
    const target = deps.targets.peek(route.endpoint, q === -1 ? '' : url.slice(q + 1));
    if (target === undefined) return false;

    const ctx = beginRequest(req, res, deps.access, deps.metrics);
    ctx.route = route.endpoint;
    ctx.session = session;
    ctx.token = token;
    for (const [name, value] of DATA_HEADERS) res.setHeader(name, value);
    res.setHeader('vary', 'Origin');
    try {
      deps.reads(req as IncomingMessage & { ctx: typeof ctx }, res, route.endpoint, target);
    } catch (error) {
      // Not expected (the forwarder reports through its own events); never leave a request hanging.
      deps.logger.error({ err: error, reqId: ctx.id }, 'fast read failed');
      if (!res.headersSent) sendError(res, new AppError('internal'));
    }
    return true;
  };
}
export type FastReads = ReturnType<typeof createFastReads>;

/**
 * The dashboard's sends, routed before Express when every check is known to pass: an exact
 * `POST /api/v1/requests/send` (no query) on a connection whose scheme and host Express would
 * take from the socket and `Host` (the proxy is not trusted for this peer), an `Origin` that is
 * this server's own (or none, with `Sec-Fetch-Site: same-origin`) and not a CORS-allowed one,
 * `X-CSRF: 1`, no form or text body type, a session this process has cached and fresh, and a role
 * that may send. Then the Express path's steps, in its order: request id and access line, data
 * headers, `Vary`, CSRF (passed), session, role, and the same send handler — the journal, the
 * validation and the forwarding are not duplicated. Any refusal goes to Express, which answers
 * it; errors the handler throws are answered as the error handler does.
 */
export function createFastSend(deps: {
  sessions: SessionStore;
  send: SendHandler;
  policy: OriginPolicy;
  /** Express's compiled `trust proxy` setting. */
  trustProxy: (address: string | undefined, hop: number) => boolean;
  access: AccessLog;
  metrics: Metrics;
  logger: Logger;
}) {
  const { policy } = deps;
  const path = ENDPOINTS.send.path;

  function sameOrigin(req: IncomingMessage, origin: string): boolean {
    if (origin === policy.publicOrigin) return true;
    const host = req.headers.host;
    if (!host) return false;
    // Express's req.protocol and req.host for an untrusted peer (checked by the caller).
    const scheme = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
    return origin === `${scheme}://${host}`;
  }

  function passesChecks(req: IncomingMessage): boolean {
    if (deps.trustProxy(req.socket.remoteAddress, 0)) return false;
    // An allowed foreign origin gets CORS headers: Express's path sets them.
    const origin = req.headers.origin;
    if (origin !== undefined && policy.allowedOrigins.has(origin)) return false;
    return csrfRefusal(req.headers, (own) => sameOrigin(req, own), policy) === null;
  }

  /** Handles the request and returns true, or returns false having changed nothing. */
  return function fastSend(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'POST' || req.url !== path || !passesChecks(req)) return false;
    const token = readSessionToken(req);
    if (token === null) return false;
    const session = deps.sessions.peek(token);
    if (session === null || !can(session.user.role, 'requests:send')) return false;

    const ctx = beginRequest(req, res, deps.access, deps.metrics);
    ctx.route = 'send';
    ctx.session = session;
    ctx.token = token;
    for (const [name, value] of DATA_HEADERS) res.setHeader(name, value);
    res.setHeader('vary', 'Origin');
    const request = req as IncomingMessage & { ctx: RequestContext };
    deps.send
      .handle(request as never, res as never)
      .then(undefined, (error: unknown) => answerError(res, error, deps.logger, path));
    return true;
  };
}
export type FastSend = ReturnType<typeof createFastSend>;
