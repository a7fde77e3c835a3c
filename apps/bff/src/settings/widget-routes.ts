import { AppError } from '@review-desk/server/errors';
import {
  BFF_WIDGET_PATHS,
  hiddenPath,
  hideReviewBodySchema,
  WIDGET_ENDPOINTS,
  widgetUpdateSchema,
} from '@review-desk/shared';
import { type Response, Router } from 'express';
import type { RouteGates } from '../gates.ts';
import { readJsonBody } from '../http/body.ts';
import { gateway } from '../http/gate.ts';
import { methodNotAllowed } from '../http/method.ts';
import { named } from '../http/named.ts';
import type { RoutedLocation } from '../locations/directory.ts';
import { interpretReply } from '../proxy/answer.ts';
import { type ExchangeMethod, exchange } from '../proxy/exchange.ts';

// Settings → Website widget (owners only: `settings:manage`), forwarded to the location's
// upstream with that location's key (docs/widget.md, "The owner's side"):
//   GET/PUT /bff/widget                  → GET/PUT /api/v1/widget (read; switch on or off)
//   PUT/DELETE /bff/widget/hidden/{id}   → PUT/DELETE /api/v1/widget/hidden/{id}
//                                          (hide a review for a content reason; show it again)
// Bodies are checked with the shared schemas and rebuilt from what they parsed. An upstream
// without the widget (its 404 `not_found` or 405) is answered `widget_not_offered`; its own 404s
// (a review that is not the business's) pass as they are.

/** Whether the upstream answered that it has no such route (not that a review was not found). */
function routeMissing(status: number, body: Buffer): boolean {
  if (status === 405) return true;
  if (status !== 404) return false;
  try {
    const code = (JSON.parse(body.toString('utf8')) as { code?: unknown }).code;
    return code === undefined || code === 'not_found';
  } catch {
    return true;
  }
}

/** A review id as the upstream names it: one path segment, nothing that could leave it. */
const REVIEW_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function widgetRoutes(deps: { gates: RouteGates }): Router {
  const router = Router();
  const { read, write, hide, show } = WIDGET_ENDPOINTS;

  async function relay(
    location: RoutedLocation,
    res: Response,
    method: ExchangeMethod,
    path: string,
    requestId: string,
    body?: Buffer,
  ) {
    const reply = await exchange(location, method, path, requestId, body);
    if (routeMissing(reply.status, reply.body)) throw new AppError('widget_not_offered');
    const answer = interpretReply(
      reply,
      method === 'GET' ? read.scope : write.scope,
      Buffer.from(location.upstream.key),
    );
    res.status(answer.status).type('application/json').set('cache-control', 'no-store').send(answer.body);
  }

  const reviewPath = (id: unknown) => {
    if (typeof id !== 'string' || !REVIEW_ID.test(id)) throw new AppError('not_found');
    return hiddenPath(hide.path, id);
  };

  router.get(
    BFF_WIDGET_PATHS.widget,
    named('widget.read'),
    gateway(deps.gates['widget.read']),
    async (req, res) => {
      await relay(req.ctx.location!, res, 'GET', read.path, req.ctx.id);
    },
  );

  router.put(
    BFF_WIDGET_PATHS.widget,
    named('widget.write'),
    gateway(deps.gates['widget.write']),
    async (req, res) => {
      const parsed = widgetUpdateSchema.safeParse(await readJsonBody(req));
      if (!parsed.success) throw AppError.validation(parsed.error);
      await relay(
        req.ctx.location!,
        res,
        'PUT',
        write.path,
        req.ctx.id,
        Buffer.from(JSON.stringify(parsed.data)),
      );
    },
  );

  router.put(
    BFF_WIDGET_PATHS.hidden,
    named('widget.hide'),
    gateway(deps.gates['widget.write']),
    async (req, res) => {
      const path = reviewPath(req.params.id);
      const parsed = hideReviewBodySchema.safeParse(await readJsonBody(req));
      if (!parsed.success) throw AppError.validation(parsed.error);
      await relay(req.ctx.location!, res, 'PUT', path, req.ctx.id, Buffer.from(JSON.stringify(parsed.data)));
    },
  );

  router.delete(
    BFF_WIDGET_PATHS.hidden,
    named('widget.show'),
    gateway(deps.gates['widget.show']),
    async (req, res) => {
      await relay(req.ctx.location!, res, 'DELETE', reviewPath(req.params.id), req.ctx.id);
    },
  );

  router.all(BFF_WIDGET_PATHS.widget, methodNotAllowed(read.method, write.method));
  router.all(BFF_WIDGET_PATHS.hidden, methodNotAllowed(hide.method, show.method));
  return router;
}
