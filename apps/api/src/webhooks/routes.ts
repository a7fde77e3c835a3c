import { AppError } from '@review-desk/server/errors';
import {
  ok,
  WEBHOOK_DELIVERY_ID_PATTERN,
  WEBHOOK_ID_PATTERN,
  WEBHOOK_PATHS,
  WEBHOOKS_SCOPE,
  webhookDeliveriesQuerySchema,
} from '@review-desk/shared';
import { type Request, Router } from 'express';
import type { AppContext } from '../context.ts';
import { jsonBody, methodNotAllowed, originRule, queryOf, requireScope } from '../http/index.ts';

// The webhook endpoints of the key's business (docs/api.md, "Webhooks"), scope webhooks:write:
//   POST   /api/v1/webhooks                                {url, events} → the endpoint and its secret (once)
//   GET    /api/v1/webhooks                                the endpoints
//   DELETE /api/v1/webhooks/{id}                           removed, with its delivery log
//   POST   /api/v1/webhooks/{id}/rotate                    a new secret; the old one signs beside it for 24 h
//   POST   /api/v1/webhooks/{id}/resume                    a paused endpoint delivers again
//   POST   /api/v1/webhooks/{id}/test                      a webhook.test event to it alone
//   GET    /api/v1/webhooks/{id}/deliveries                its log (30 days), newest first, paged
//   POST   /api/v1/webhooks/{id}/deliveries/{d}/resend     "send again": the same event, now
// Writes pass the Origin rule like any POST.

function endpointId(req: Request): string {
  const id = req.params.id as string;
  if (!WEBHOOK_ID_PATTERN.test(id)) throw new AppError('not_found', 'No webhook endpoint with this id.');
  return id;
}

export function webhookRoutes(ctx: AppContext): Router {
  const router = Router();
  const scope = requireScope(ctx, WEBHOOKS_SCOPE);
  const write = [originRule(ctx), scope];
  const hooks = () => ctx.webhooks;
  const business = (req: Request) => req.apiKey!.businessId;

  router.post(WEBHOOK_PATHS.list, ...write, ...jsonBody(), async (req, res) => {
    const created = await hooks().create(business(req), req.body);
    ctx.logger.info(
      { reqId: req.id, endpoint: created.id, events: created.events },
      'webhook endpoint created',
    );
    res.status(201).json(ok(created));
  });
  router.get(WEBHOOK_PATHS.list, scope, async (req, res) => {
    res.json(ok({ webhooks: await hooks().list(business(req)) }));
  });
  router.delete(WEBHOOK_PATHS.one, ...write, async (req, res) => {
    await hooks().remove(business(req), endpointId(req));
    res.json(ok({ id: endpointId(req), removed: true }));
  });
  router.post(WEBHOOK_PATHS.rotate, ...write, async (req, res) => {
    const rotated = await hooks().rotate(business(req), endpointId(req));
    ctx.logger.info({ reqId: req.id, endpoint: rotated.id }, 'webhook secret rotated');
    res.json(ok(rotated));
  });
  router.post(WEBHOOK_PATHS.resume, ...write, async (req, res) => {
    res.json(ok(await hooks().resume(business(req), endpointId(req))));
  });
  router.post(WEBHOOK_PATHS.test, ...write, async (req, res) => {
    res.json(ok(await hooks().test(business(req), endpointId(req))));
  });
  router.get(WEBHOOK_PATHS.deliveries, scope, async (req, res) => {
    const parsed = webhookDeliveriesQuerySchema.safeParse(queryOf(req));
    if (!parsed.success) throw AppError.validation(parsed.error);
    const { page, limit } = parsed.data;
    res.json(ok(await hooks().deliveries(business(req), endpointId(req), page, limit)));
  });
  router.post(WEBHOOK_PATHS.resend, ...write, async (req, res) => {
    const delivery = req.params.delivery as string;
    if (!WEBHOOK_DELIVERY_ID_PATTERN.test(delivery))
      throw new AppError('not_found', 'No delivery with this id.');
    res.json(ok(await hooks().resend(business(req), endpointId(req), Number(delivery))));
  });

  router.all(WEBHOOK_PATHS.list, methodNotAllowed(['GET', 'POST']));
  router.all(WEBHOOK_PATHS.one, methodNotAllowed(['DELETE']));
  for (const path of [WEBHOOK_PATHS.rotate, WEBHOOK_PATHS.resume, WEBHOOK_PATHS.test, WEBHOOK_PATHS.resend])
    router.all(path, methodNotAllowed(['POST']));
  router.all(WEBHOOK_PATHS.deliveries, methodNotAllowed(['GET']));
  return router;
}
