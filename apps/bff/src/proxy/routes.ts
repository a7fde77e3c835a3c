import type { ServerResponse } from 'node:http';
import { AppError, sendError } from '@review-desk/server/errors';
import { MESSAGES, PROXIED_ENDPOINTS, PROXY_ROUTES, pathMatches } from '@review-desk/shared';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Gates } from '../gates.ts';
import { type Gate, type GateRequest, throughGates } from '../http/gate.ts';
import type { LocationHandlers } from '../locations/handlers.ts';
import type { ReadEndpoint, ReadTargets } from './read-targets.ts';

// The allow-listed proxy, under /api after the entry gates: exactly the shared PROXY_ROUTES, at
// the upstream's own paths and methods (case-sensitive, no trailing slash; a path may take several
// methods: one review is read and changed at one address). Every other method → 405, every other
// path under /api → 404; neither is forwarded. An allowed route then passes its
// own gates (gates.ts) and is forwarded. One Express layer for all of /api: the hottest calls
// are not walked through a router (docs/decisions/0010-bff-fast-path.md).

type ProxyEndpoint = (typeof PROXY_ROUTES)[number]['endpoint'];
type Route = {
  endpoint: ProxyEndpoint;
  method: string;
  gates: readonly Gate[];
  handle: (req: GateRequest, res: ServerResponse, id: string | undefined) => unknown;
};
/** The routes of one path, by method; any other method gets the 405 naming them (Allow). */
type PathRoutes = { pattern: string; routes: Route[]; wrongMethod: AppError };

/** The review writes (answering reviews): their own handler, not the reads' forwarder. */
const WRITES = new Set<ProxyEndpoint>(['reviewStatus', 'reviewReply', 'reviewWithdraw']);
type WriteEndpoint = 'reviewStatus' | 'reviewReply' | 'reviewWithdraw';

const API = '/api';
const NOT_FOUND = new AppError('not_found');

/** The `:id` segment of a path of `pattern`, percent-decoded (undefined when it does not decode). */
function idOf(pattern: string, path: string): string | undefined {
  const at = pattern.split('/').indexOf(':id');
  if (at === -1) return undefined;
  try {
    return decodeURIComponent(path.split('/')[at] ?? '');
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
  /** Paths without an `:id`, looked up at once (the hottest calls); the others matched in turn. */
  const exact = new Map<string, PathRoutes>();
  const patterns: PathRoutes[] = [];
  for (const { endpoint } of PROXY_ROUTES) {
    const { path, method } = PROXIED_ENDPOINTS[endpoint];
    const handle: Route['handle'] =
      endpoint === 'send'
        ? (req, res) => deps.handlers(req).send.handle(req, res)
        : WRITES.has(endpoint)
          ? (req, res, id) => deps.handlers(req).reviewWrites.handle(req, res, endpoint as WriteEndpoint, id)
          : (req, res, id) => {
              const url = req.url ?? '';
              const q = url.indexOf('?');
              const search = q === -1 ? '' : url.slice(q + 1);
              const read = endpoint as ReadEndpoint;
              deps.handlers(req).reads(req, res, read, deps.targets.resolve(read, search, id));
            };
    const route: Route = { endpoint, method, gates: deps.gates.routes[endpoint], handle };
    let entry = path.includes(':') ? patterns.find((p) => p.pattern === path) : exact.get(path);
    if (!entry) {
      entry = { pattern: path, routes: [], wrongMethod: NOT_FOUND };
      if (path.includes(':')) patterns.push(entry);
      else exact.set(path, entry);
    }
    entry.routes.push(route);
    const allowed = entry.routes.map((r) => r.method).join(', ');
    entry.wrongMethod = new AppError('method_not_allowed', MESSAGES.methodNotAllowed(allowed), {
      headers: { allow: allowed },
    });
  }
  const find = (path: string): PathRoutes | undefined =>
    exact.get(path) ?? patterns.find((p) => pathMatches(p.pattern, path));

  /** The allow-list: the route of this path and method, or the refusal (404, 405 with Allow). */
  function allowList(req: GateRequest): { route: Route; entry: PathRoutes } | AppError {
    const entry = find(pathOf(req.url ?? ''));
    if (entry === undefined) {
      req.ctx.route = 'api-unknown';
      return NOT_FOUND;
    }
    const route = entry.routes.find((r) => r.method === req.method);
    req.ctx.route = (route ?? (entry.routes[0] as Route)).endpoint;
    return route ? { route, entry } : entry.wrongMethod;
  }

  /** After the entry gates: the allow-list, the route's gates, the handler. */
  function serveRoute(req: GateRequest, res: ServerResponse, fail: (error: unknown) => void): void {
    const allowed = allowList(req);
    if (allowed instanceof AppError) {
      sendError(res, allowed);
      return;
    }
    const { route, entry } = allowed;
    const id = idOf(entry.pattern, pathOf(req.url ?? ''));
    throughGates(route.gates, req, res, () => route.handle(req, res, id), fail);
  }

  return (req: Request, res: Response, next: NextFunction) => {
    const path = pathOf(req.url);
    if (path === API || path.startsWith(`${API}/`)) serveRoute(req, res, next);
    else next();
  };
}
