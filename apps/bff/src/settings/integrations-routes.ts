import { AppError } from '@review-desk/server/errors';
import {
  BFF_INTEGRATION_PATHS,
  INTEGRATION_PATHS,
  queryRecord,
  squareUpdateSchema,
  WEBHOOK_ACTIONS,
  WEBHOOK_DELIVERY_ID_PATTERN,
  WEBHOOK_ID_PATTERN,
  WEBHOOK_PATHS,
  WEBHOOKS_SCOPE,
  type WebhookAction,
  webhookCreateSchema,
  webhookDeliveriesQuerySchema,
  webhookDeliveriesSearchParams,
  webhookPath,
} from '@review-desk/shared';
import { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import type { RouteGates } from '../gates.ts';
import { readJsonBody } from '../http/body.ts';
import { gateway } from '../http/gate.ts';
import { methodNotAllowed } from '../http/method.ts';
import { named } from '../http/named.ts';
import { interpretReply } from '../proxy/answer.ts';
import { type ExchangeMethod, exchange } from '../proxy/exchange.ts';

// Settings → Integrations (owners only: `settings:manage`), forwarded to the location's upstream
// with that location's key (docs/settings.md, "Integrations"):
//   GET /bff/integrations, PUT/DELETE /bff/integrations/square   → /api/v1/integrations[/square]
//   GET/POST /bff/webhooks, DELETE /bff/webhooks/{id}             → /api/v1/webhooks[/{id}]
//   POST /bff/webhooks/{id}/rotate|resume|test                   → the same under /api/v1
//   GET /bff/webhooks/{id}/deliveries, POST …/{delivery}/resend  → the delivery log, "send again"
// Bodies are checked with the shared schemas and rebuilt from what they parsed; ids are checked
// before they go into an upstream path. An upstream without these routes answers 404: passed on.

const endpointId = (req: Request) => {
  const id = req.params.id;
  if (typeof id !== 'string' || !WEBHOOK_ID_PATTERN.test(id)) throw new AppError('not_found');
  return id;
};

export function integrationRoutes(deps: { gates: RouteGates }): Router {
  const router = Router();
  const { gates } = deps;
  const paths = BFF_INTEGRATION_PATHS;

  async function relay(
    req: Request,
    res: Response,
    method: ExchangeMethod,
    path: string,
    scope: string,
    body?: unknown,
  ) {
    const sent = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const location = req.ctx.location!;
    const reply = await exchange(location, method, path, req.ctx.id, sent);
    const answer = interpretReply(reply, scope, Buffer.from(location.upstream.key));
    res.status(answer.status).type('application/json').set('cache-control', 'no-store').send(answer.body);
  }
  const parsed = async <S extends z.core.$ZodType>(req: Request, schema: S): Promise<z.output<S>> => {
    const result = z.safeParse(schema, await readJsonBody(req));
    if (!result.success) throw AppError.validation(result.error);
    return result.data;
  };

  router.get(
    paths.integrations,
    named('integrations.read'),
    gateway(gates['integrations.read']),
    (req, res) => relay(req, res, 'GET', INTEGRATION_PATHS.list, 'settings:read'),
  );
  router.put(
    paths.square,
    named('integrations.square'),
    gateway(gates['integrations.write']),
    async (req, res) =>
      relay(
        req,
        res,
        'PUT',
        INTEGRATION_PATHS.square,
        'settings:write',
        await parsed(req, squareUpdateSchema),
      ),
  );
  router.delete(
    paths.square,
    named('integrations.disconnect'),
    gateway(gates['integrations.remove']),
    (req, res) => relay(req, res, 'DELETE', INTEGRATION_PATHS.square, 'settings:write'),
  );

  router.get(paths.webhooks, named('webhooks.read'), gateway(gates['integrations.read']), (req, res) =>
    relay(req, res, 'GET', WEBHOOK_PATHS.list, WEBHOOKS_SCOPE),
  );
  router.post(
    paths.webhooks,
    named('webhooks.create'),
    gateway(gates['integrations.write']),
    async (req, res) =>
      relay(req, res, 'POST', WEBHOOK_PATHS.list, WEBHOOKS_SCOPE, await parsed(req, webhookCreateSchema)),
  );
  router.get(
    paths.deliveries,
    named('webhooks.deliveries'),
    gateway(gates['integrations.read']),
    (req, res) => {
      const asked = webhookDeliveriesQuerySchema.safeParse(queryRecord(req.originalUrl.split('?')[1] ?? ''));
      if (!asked.success) throw AppError.validation(asked.error);
      const query = webhookDeliveriesSearchParams(asked.data);
      return relay(
        req,
        res,
        'GET',
        `${webhookPath(WEBHOOK_PATHS.deliveries, endpointId(req))}?${query}`,
        WEBHOOKS_SCOPE,
      );
    },
  );
  router.post(paths.resend, named('webhooks.resend'), gateway(gates['integrations.remove']), (req, res) => {
    const delivery = req.params.delivery;
    if (typeof delivery !== 'string' || !WEBHOOK_DELIVERY_ID_PATTERN.test(delivery))
      throw new AppError('not_found');
    return relay(
      req,
      res,
      'POST',
      webhookPath(WEBHOOK_PATHS.resend, endpointId(req), delivery),
      WEBHOOKS_SCOPE,
    );
  });
  router.delete(paths.webhook, named('webhooks.remove'), gateway(gates['integrations.remove']), (req, res) =>
    relay(req, res, 'DELETE', webhookPath(WEBHOOK_PATHS.one, endpointId(req)), WEBHOOKS_SCOPE),
  );
  router.post(
    paths.webhookAction,
    named('webhooks.action'),
    gateway(gates['integrations.remove']),
    (req, res) => {
      const action = req.params.action as WebhookAction;
      if (!WEBHOOK_ACTIONS.includes(action)) throw new AppError('not_found');
      return relay(req, res, 'POST', webhookPath(WEBHOOK_PATHS[action], endpointId(req)), WEBHOOKS_SCOPE);
    },
  );

  router.all(paths.integrations, methodNotAllowed('GET'));
  router.all(paths.square, methodNotAllowed('PUT', 'DELETE'));
  router.all(paths.webhooks, methodNotAllowed('GET', 'POST'));
  router.all(paths.webhook, methodNotAllowed('DELETE'));
  router.all(paths.deliveries, methodNotAllowed('GET'));
  router.all(paths.resend, methodNotAllowed('POST'));
  router.all(paths.webhookAction, methodNotAllowed('POST'));
  return router;
}
