import type { ServerResponse } from 'node:http';
import { AppError, sendError } from '@review-desk/server/errors';
import { MESSAGES, PROXIED_ENDPOINTS, PROXY_ROUTES } from '@review-desk/shared';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Gates } from '../gates.ts';
import { type Gate, type GateRequest, throughGates } from '../http/gate.ts';
import type { LocationHandlers } from '../locations/handlers.ts';
import type { ReadTargets } from './read-targets.ts';

// The allow-listed proxy, under /api after the entry gates: exactly the shared PROXY_ROUTES, at
// the upstream's own paths and methods (case-sensitive, no trailing slash). Every other method →
// 405, every other path under /api → 404; neither is forwarded. An allowed route then passes its
// own gates (gates.ts) and is forwarded. One Express layer for all of /api: the hottest calls
// are not walked through a router (docs/decisions/0010-bff-fast-path.md).

type ProxyEndpoint = (typeof PROXY_ROUTES)[number]['endpoint'];
type Route = {
  endpoint: ProxyEndpoint;
  method: string;
  gates: readonly Gate[];
  handle: (req: GateRequest, res: ServerResponse) => unknown;
  /** The 405 for any other method (Express lets GET routes answer HEAD; the allow-list is exact). */
  wrongMethod: AppError;
};

const API = '/api';
const NOT_FOUND = new AppError('not_found');

/** The last path segment, percent-decoded (undefined when it does not decode). */
function lastSegment(path: string): string | undefined {
  try {
    return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
  } catch {
    return undefined;
  }
}

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

export function createProxy(deps: {
  gates: Gates;
  /** The forwarders of the location the request's gates chose. */
  handlers: (req: GateRequest) => LocationHandlers;
  targets: ReadTargets;
}): RequestHandler {
  const routes = new Map<string, Route>();
  /** Routes with one `:id` segment last (one request of the list): matched on their prefix. */
  const byPrefix: { prefix: string; route: Route }[] = [];
  for (const { endpoint } of PROXY_ROUTES) {
    const { path, method } = PROXIED_ENDPOINTS[endpoint];
    const handle: Route['handle'] =
      endpoint === 'send'
        ? (req, res) => deps.handlers(req).send.handle(req, res)
        : (req, res) => {
            const url = req.url ?? '';
            const q = url.indexOf('?');
            const search = q === -1 ? '' : url.slice(q + 1);
            const id = endpoint === 'request' ? lastSegment(pathOf(url)) : undefined;
            deps.handlers(req).reads(req, res, endpoint, deps.targets.resolve(endpoint, search, id));
          };
    const wrongMethod = new AppError('method_not_allowed', MESSAGES.methodNotAllowed(method), {
      headers: { allow: method },
    });
    const route = { endpoint, method, gates: deps.gates.routes[endpoint], handle, wrongMethod };
    if (path.endsWith('/:id')) byPrefix.push({ prefix: path.slice(0, -':id'.length), route });
    else routes.set(path, route);
  }
  const find = (path: string): Route | undefined => {
    const exact = routes.get(path);
    if (exact) return exact;
    for (const { prefix, route } of byPrefix) {
      if (path.startsWith(prefix) && path.length > prefix.length && !path.includes('/', prefix.length))
        return route;
    }
    return undefined;
  };

  /** Gate: the allow-list. Names the route (or `api-unknown`) and refuses what it does not list. */
  const allowList: Gate = (req) => {
    const route = find(pathOf(req.url ?? ''));
    if (route === undefined) {
      req.ctx.route = 'api-unknown';
      return NOT_FOUND;
    }
    req.ctx.route = route.endpoint;
    return req.method === route.method ? null : route.wrongMethod;
  };

  /** After the entry gates: the allow-list, the route's gates, the handler. */
  function serveRoute(req: GateRequest, res: ServerResponse, fail: (error: unknown) => void): void {
    const refusal = allowList(req, res) as AppError | null;
    if (refusal !== null) {
      sendError(res, refusal);
      return;
    }
    const route = find(pathOf(req.url ?? '')) as Route;
    throughGates(route.gates, req, res, () => route.handle(req, res), fail);
  }

  return (req: Request, res: Response, next: NextFunction) => {
    const path = pathOf(req.url);
    if (path === API || path.startsWith(`${API}/`)) serveRoute(req, res, next);
    else next();
  };
}
