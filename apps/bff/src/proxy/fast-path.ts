import type { IncomingMessage, ServerResponse } from 'node:http';
import { can, ENDPOINTS, type Permission } from '@review-desk/shared';
import type { Logger } from 'pino';
import { readSessionToken } from '../auth/middleware.ts';
import type { SessionStore } from '../auth/sessions.ts';
import { beginRequest } from '../http/context.ts';
import { DATA_HEADERS, hasBody } from '../http/security.ts';
import type { AccessLog } from '../log.ts';
import type { Metrics } from '../metrics.ts';
import type { ReadForwarder } from './reads.ts';
import type { ReadEndpoint, ReadTargets } from './routes.ts';

// The dashboard's reads, routed before Express when every answer is already known: an exact
// GET on a read route, no Origin (same-origin reads send none), no body, a session this process
// has cached and fresh, a role that allows the route, a query string validated before. Then the
// steps the Express path would take are these, in its order — request id and access line, data
// headers, Vary, session, role, the remembered canonical target, forward — without Express's
// per-request set-up and router. Anything else (a first query, an expired or unknown session, a
// cross-origin call, any error to report) goes to Express, which answers it in full.
// See docs/decisions/bff-fast-path.md.

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
      if (!res.headersSent) {
        res.writeHead(500, {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'no-store',
        });
        res.end('{"success":false,"error":"Internal server error."}');
      }
    }
    return true;
  };
}
export type FastReads = ReturnType<typeof createFastReads>;
