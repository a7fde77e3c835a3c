import { INTEGRATION_PATHS, ok, SQUARE_SIGNATURE_HEADER, SQUARE_WEBHOOK_PATH } from '@review-desk/shared';
import express, { Router } from 'express';
import type { AppContext } from '../../context.ts';
import { jsonBody, methodNotAllowed, originRule, requireScope } from '../../http/index.ts';

// Square's notifications and the owners' side of the connection (docs/settings.md):
//   POST   /webhooks/square/{id}          Square's signed notification (raw body: the signature is over its bytes)
//   GET    /api/v1/integrations           settings:read — each point of sale, connected or not
//   PUT    /api/v1/integrations/square    settings:write — connect, or change the key, token, automatic sends, delay
//   DELETE /api/v1/integrations/square    settings:write — disconnect

/** Square's notifications are a few KB; this is room enough. */
const NOTIFICATION_LIMIT = '64kb';

export function squareRoutes(ctx: AppContext): Router {
  const router = Router();
  const square = () => ctx.square;

  router.post(
    `${SQUARE_WEBHOOK_PATH}/:connection`,
    express.raw({ type: () => true, limit: NOTIFICATION_LIMIT }),
    async (req, res) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const reply = await square().receive(
        req.params.connection as string,
        raw,
        req.get(SQUARE_SIGNATURE_HEADER),
      );
      ctx.logger.info({ reqId: req.id, ...reply.data }, 'square notification');
      res.status(reply.status).json(ok(reply.data));
    },
  );
  router.all(`${SQUARE_WEBHOOK_PATH}/:connection`, methodNotAllowed(['POST']));

  router.get(INTEGRATION_PATHS.list, requireScope(ctx, 'settings:read'), async (req, res) => {
    res.json(ok(await square().list(req.apiKey!.businessId)));
  });
  const write = [originRule(ctx), requireScope(ctx, 'settings:write')];
  router.put(INTEGRATION_PATHS.square, ...write, ...jsonBody(), async (req, res) => {
    const answer = await square().update(req.apiKey!.businessId, req.body);
    ctx.logger.info({ reqId: req.id, fields: Object.keys(req.body ?? {}) }, 'square connection changed');
    res.json(ok(answer));
  });
  router.delete(INTEGRATION_PATHS.square, ...write, async (req, res) => {
    res.json(ok(await square().disconnect(req.apiKey!.businessId)));
  });
  router.all(INTEGRATION_PATHS.list, methodNotAllowed(['GET']));
  router.all(INTEGRATION_PATHS.square, methodNotAllowed(['PUT', 'DELETE']));
  return router;
}
