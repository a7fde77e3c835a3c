import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Session } from '../auth/sessions.ts';
import type { RoutedLocation } from '../locations/directory.ts';
import type { AccessLog } from '../log.ts';
import type { Metrics } from '../metrics.ts';

// Per-request context: an id (sent upstream and returned as X-Request-Id), the route name used
// for metrics and logs, and the session once authenticated. One access-log line per request.

export type RequestContext = {
  id: string;
  started: bigint;
  /** Bounded name for metrics and logs: 'reviews', 'login', 'static', … never a raw path. */
  route: string;
  session: Session | null;
  /** The session token from the cookie, when one was presented. */
  token: string | null;
  /** The slug a `/l/<slug>/…` path named (null: none, the user's first location). */
  locationSlug: string | null;
  /** The location the call goes to, once the location gate passed. */
  location: RoutedLocation | null;
};

declare module 'express-serve-static-core' {
  interface Request {
    ctx: RequestContext;
  }
}

/**
 * The longest path an access line carries. Ours are short; a made-up one can be 16 KB, and lines
 * are written while the server is busy answering — a flood of long paths would pile up unwritten
 * lines in memory faster than the log can take them.
 */
export const LOGGED_PATH_MAX = 256;

/** Starts a request's context: id, X-Request-Id, and the access line + metrics when it finishes. */
export function beginRequest(
  req: IncomingMessage & { ctx?: RequestContext; originalUrl?: string },
  res: ServerResponse,
  access: AccessLog,
  metrics: Metrics,
): RequestContext {
  const ctx: RequestContext = {
    id: randomUUID(),
    started: process.hrtime.bigint(),
    route: 'other',
    session: null,
    token: null,
    locationSlug: null,
    location: null,
  };
  req.ctx = ctx;
  // Before any rewrite of req.url (the proxy replaces it with the canonical target).
  const url = req.originalUrl ?? req.url ?? '';
  res.setHeader('x-request-id', ctx.id);
  res.once('finish', () => {
    const seconds = Number(process.hrtime.bigint() - ctx.started) / 1e9;
    metrics.observeRequest(ctx.route, req.method ?? '', res.statusCode, seconds);
    if (!access.enabled) return;
    const q = url.indexOf('?');
    // The query is left out: /bff/sends?contact=… would put a customer's contact in the log.
    const path = q === -1 ? url : url.slice(0, q);
    access.write({
      reqId: ctx.id,
      method: req.method ?? '',
      path: path.length > LOGGED_PATH_MAX ? `${path.slice(0, LOGGED_PATH_MAX)}…` : path,
      route: ctx.route,
      status: res.statusCode,
      ms: Math.round(seconds * 10_000) / 10,
      user: ctx.session?.user.id,
    });
  });
  return ctx;
}
