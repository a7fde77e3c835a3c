import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context.ts';
import { requestIdOf, securityHeaderValues } from '../http/middleware.ts';
import { ROUTE_NAMES, respond, viewInMemory } from './views.ts';

// Visitors' views answered from memory before Express
// (docs/decisions/0031-widget-views-from-memory.md): a GET or HEAD of the script, the stylesheet,
// or a widget whose answer is kept. The same security headers and request id as every answer, the
// same per-address headers as the routes; counted in the request metrics, but not logged line by
// line (at 10,000 views a second the log would be the views). Anything else — a widget to build,
// an unknown id, another method — goes on to Express, whose routes answer it and log it.

export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

export function widgetFastPath(ctx: Pick<AppContext, 'widgets' | 'metrics' | 'config'>): FastPath {
  const security = securityHeaderValues(ctx as AppContext);
  return (req, res) => {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const target = req.url ?? '';
    const q = target.indexOf('?');
    const view = viewInMemory(ctx.widgets, q === -1 ? target : target.slice(0, q));
    if (!view) return false;
    const started = process.hrtime.bigint();
    for (const name in security) res.setHeader(name, security[name] as string);
    res.setHeader('x-request-id', requestIdOf(req.headers['x-request-id']));
    respond(req, res, view.kind, view.body);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    ctx.metrics.observeRequest(ROUTE_NAMES[view.kind], method, res.statusCode, seconds);
    return true;
  };
}
