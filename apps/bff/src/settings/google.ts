import { AppError } from '@review-desk/server/errors';
import { BFF_GOOGLE_PATH, GOOGLE_ENDPOINT, googleConnectBodySchema } from '@review-desk/shared';
import { type Request, type Response, Router } from 'express';
import type { RouteGates } from '../gates.ts';
import { readJsonBody } from '../http/body.ts';
import { gateway } from '../http/gate.ts';
import { methodNotAllowed } from '../http/method.ts';
import { named } from '../http/named.ts';
import { interpretReply } from '../proxy/answer.ts';
import { exchange } from '../proxy/exchange.ts';

// GET/PUT/DELETE /bff/settings/google: the owners' Settings connect the location's Google Business
// Profile location, through the location's upstream (GET/PUT/DELETE /api/v1/integrations/google,
// with its key). The body is checked with the shared schema and rebuilt before it leaves; the
// refresh token crosses once, to the service, which seals it and never answers it back. An
// upstream without the extension (404/405) is `settings_not_offered`.

export function googleSettingsRoutes(deps: { gates: RouteGates }): Router {
  const router = Router();
  const relay = async (req: Request, res: Response, method: 'GET' | 'PUT' | 'DELETE', body?: Buffer) => {
    const location = req.ctx.location!;
    const reply = await exchange(location, method, GOOGLE_ENDPOINT.path, req.ctx.id, body);
    if (reply.status === 404 || reply.status === 405) throw new AppError('settings_not_offered');
    const scope = method === 'GET' ? GOOGLE_ENDPOINT.read : GOOGLE_ENDPOINT.write;
    const answer = interpretReply(reply, scope, Buffer.from(location.upstream.key));
    res.status(answer.status).type('application/json').set('cache-control', 'no-store').send(answer.body);
  };

  router.get(BFF_GOOGLE_PATH, named('settings.google'), gateway(deps.gates['settings.read']), (req, res) =>
    relay(req, res, 'GET'),
  );
  router.put(
    BFF_GOOGLE_PATH,
    named('settings.google'),
    gateway(deps.gates['settings.write']),
    async (req, res) => {
      const parsed = googleConnectBodySchema.safeParse(await readJsonBody(req));
      if (!parsed.success) throw AppError.validation(parsed.error);
      await relay(req, res, 'PUT', Buffer.from(JSON.stringify(parsed.data)));
    },
  );
  router.delete(
    BFF_GOOGLE_PATH,
    named('settings.google'),
    gateway(deps.gates['settings.remove']),
    (req, res) => relay(req, res, 'DELETE'),
  );
  router.all(BFF_GOOGLE_PATH, methodNotAllowed('GET', 'PUT', 'DELETE'));
  return router;
}
