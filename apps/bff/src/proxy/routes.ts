import { AppError, sendError } from '@review-desk/server/errors';
import {
  analyticsQuerySchema,
  analyticsSearchParams,
  ENDPOINTS,
  PROXY_ROUTES,
  queryRecord,
  reviewsQuerySchema,
  reviewsSearchParams,
} from '@review-desk/shared';
import { type Request, type RequestHandler, type Response, Router } from 'express';
import { type CookieSettings, requirePermission, requireSession } from '../auth/middleware.ts';
import type { SessionStore } from '../auth/sessions.ts';
import { inOrder } from '../http/in-order.ts';
import { methodNotAllowed } from '../http/method.ts';
import { hasBody } from '../http/security.ts';
import type { ReadForwarder } from './reads.ts';
import type { SendHandler } from './send.ts';

// The allow-list: exactly the shared PROXY_ROUTES, at the upstream's own paths and methods
// (case-sensitive, no trailing slash). Every other method → 405, every other path under /api →
// 404; neither is forwarded. Each route: CSRF (POST) → session → role → validation → forward.

const CANONICAL_CACHE_MAX = 1_000;

const readSchemas = {
  reviews: { schema: reviewsQuerySchema, canonical: reviewsSearchParams },
  analytics: { schema: analyticsQuerySchema, canonical: analyticsSearchParams },
} as const;
export type ReadEndpoint = keyof typeof readSchemas;

/**
 * The upstream target of a read: the path and a query rebuilt from the parsed values, never the
 * browser's text. A dashboard asks the same few queries again and again, so each valid query
 * string is validated once and its target remembered (bounded: the map is emptied when full).
 */
export function createReadTargets() {
  const caches: Record<ReadEndpoint, Map<string, string>> = { reviews: new Map(), analytics: new Map() };
  return {
    /** The remembered target, or undefined when this query string has not been validated yet. */
    peek: (endpoint: ReadEndpoint, search: string) => caches[endpoint].get(search),
    /** Validates (400 on a bad query) and remembers. */
    resolve(endpoint: ReadEndpoint, search: string): string {
      const cache = caches[endpoint];
      const known = cache.get(search);
      if (known !== undefined) return known;
      const { schema, canonical } = readSchemas[endpoint];
      const parsed = schema.safeParse(queryRecord(search));
      if (!parsed.success) throw AppError.validation(parsed.error);
      const query = canonical(parsed.data as never).toString();
      const path = ENDPOINTS[endpoint].path;
      const target = query ? `${path}?${query}` : path;
      if (cache.size >= CANONICAL_CACHE_MAX) cache.clear();
      cache.set(search, target);
      return target;
    },
  };
}
export type ReadTargets = ReturnType<typeof createReadTargets>;

export function apiRoutes(deps: {
  sessions: SessionStore;
  cookies: CookieSettings;
  csrf: RequestHandler;
  reads: ReadForwarder;
  targets: ReadTargets;
  send: SendHandler;
}): Router {
  const router = Router({ caseSensitive: true, strict: true });
  const session = requireSession(deps.sessions, deps.cookies);

  for (const route of PROXY_ROUTES) {
    const endpoint = ENDPOINTS[route.endpoint];
    const notAllowed = methodNotAllowed(endpoint.method);
    // Express lets GET routes answer HEAD; the allow-list is exact, so HEAD is refused too.
    const name: RequestHandler = (req, res, next) => {
      req.ctx.route = route.endpoint;
      if (req.method === endpoint.method) next();
      else notAllowed(req, res, next);
    };
    const allowed = requirePermission(route.permission);

    if (route.endpoint === 'send') {
      router.post(
        endpoint.path,
        inOrder(name, deps.csrf, session, allowed, (req, res) => deps.send.handle(req, res)),
      );
    } else {
      const endpointName = route.endpoint;
      const forward: RequestHandler = (req: Request, res: Response) => {
        if (hasBody(req)) throw new AppError('body_not_allowed');
        const q = req.url.indexOf('?');
        deps.reads(
          req,
          res,
          endpointName,
          deps.targets.resolve(endpointName, q === -1 ? '' : req.url.slice(q + 1)),
        );
      };
      router.get(endpoint.path, inOrder(name, session, allowed, forward));
    }
    router.all(endpoint.path, name);
  }

  router.all(['/api', '/api/*rest'], (req, res) => {
    req.ctx.route = 'api-unknown';
    sendError(res, new AppError('not_found'));
  });
  return router;
}
