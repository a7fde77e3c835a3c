import { AppError } from '@review-desk/server/errors';
import {
  BFF_PATHS,
  BFF_SETTINGS_TEST_PATH,
  bffSettingsTestBodySchema,
  SETTINGS_ENDPOINTS,
  SETTINGS_TEST_ENDPOINT,
  settingsUpdateSchema,
} from '@review-desk/shared';
import { type RequestHandler, Router } from 'express';
import type { RouteGates } from '../gates.ts';
import { readJsonBody } from '../http/body.ts';
import { gateway } from '../http/gate.ts';
import { methodNotAllowed } from '../http/method.ts';
import { named } from '../http/named.ts';
import type { RoutedLocation } from '../locations/directory.ts';
import { interpretReply } from '../proxy/answer.ts';
import { exchange } from '../proxy/exchange.ts';
import { widgetRoutes } from './widget-routes.ts';

// GET/PUT /bff/settings: the owners' Settings page, forwarded to the location's upstream
// GET/PUT /api/v1/settings with that location's key (owners only: `settings:manage`). The body of
// a PUT is checked with the shared schema before it leaves, and rebuilt from what it parsed, so
// nothing but the settings' own fields goes upstream. An upstream without the extension (404 or
// 405) is answered `settings_not_offered`: the page says those are managed by that service.
// POST /bff/settings/test ("Send me a test", same owners-only gates as the PUT) forwards to
// POST /api/v1/settings/test: an email test goes to the signed-in owner's own address, filled
// in here; an SMS test to the phone the owner typed.

type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';

export function settingsRoutes(deps: { gates: RouteGates }): Router {
  const router = Router();

  const relay = async (
    location: RoutedLocation,
    res: Parameters<RequestHandler>[1],
    method: Method,
    requestId: string,
    body?: Buffer,
  ) => {
    const { read, write } = SETTINGS_ENDPOINTS;
    const test = method === 'POST';
    const path = test ? SETTINGS_TEST_ENDPOINT.path : read.path;
    const reply = await exchange(location, method, path, requestId, body);
    if (reply.status === 404 || reply.status === 405) throw new AppError('settings_not_offered');
    const answer = interpretReply(
      reply,
      method === 'GET' ? read.scope : write.scope,
      Buffer.from(location.upstream.key),
    );
    // The test's hourly limit says when the next may go.
    if (reply.status === 429 && reply.retryAfter && /^[0-9]{1,6}$/.test(reply.retryAfter))
      res.set('retry-after', reply.retryAfter);
    res.status(answer.status).type('application/json').set('cache-control', 'no-store').send(answer.body);
  };

  router.get(
    BFF_PATHS.settings,
    named('settings.read'),
    gateway(deps.gates['settings.read']),
    async (req, res) => {
      await relay(req.ctx.location!, res, 'GET', req.ctx.id);
    },
  );

  router.put(
    BFF_PATHS.settings,
    named('settings.write'),
    gateway(deps.gates['settings.write']),
    async (req, res) => {
      const parsed = settingsUpdateSchema.safeParse(await readJsonBody(req));
      if (!parsed.success) throw AppError.validation(parsed.error);
      const body = Buffer.from(JSON.stringify(parsed.data));
      await relay(req.ctx.location!, res, 'PUT', req.ctx.id, body);
    },
  );

  router.post(
    BFF_SETTINGS_TEST_PATH,
    named('settings.test'),
    gateway(deps.gates['settings.write']),
    async (req, res) => {
      const parsed = bffSettingsTestBodySchema.safeParse(await readJsonBody(req));
      if (!parsed.success) throw AppError.validation(parsed.error);
      const { channel, templates } = parsed.data;
      const to = parsed.data.channel === 'sms' ? parsed.data.phone : req.ctx.session!.user.email;
      const body = Buffer.from(JSON.stringify({ channel, to, ...(templates ? { templates } : {}) }));
      await relay(req.ctx.location!, res, 'POST', req.ctx.id, body);
    },
  );

  router.all(BFF_PATHS.settings, methodNotAllowed('GET', 'PUT'));
  router.all(BFF_SETTINGS_TEST_PATH, methodNotAllowed('POST'));
  // Settings → Website widget.
  router.use(widgetRoutes(deps));
  return router;
}
