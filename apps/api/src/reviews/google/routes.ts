import { AppError } from '@review-desk/server/errors';
import { GOOGLE_ENDPOINT, googleConnectBodySchema, ok } from '@review-desk/shared';
import { type Request, Router } from 'express';
import type { AppContext } from '../../context.ts';
import { jsonBody, methodNotAllowed, originRule, requireScope } from '../../http/index.ts';
import { connectGoogle } from './connect.ts';

// GET/PUT/DELETE /api/v1/integrations/google, an extension (docs/api.md, "Google Business
// Profile"): the business of the key reads, connects and disconnects its Google location. The
// refresh token goes in and never comes out; a change passes the Origin rule like a POST.

export function googleRoutes(ctx: AppContext): Router {
  const router = Router();
  const { path, read, write } = GOOGLE_ENDPOINT;
  const describe = async (req: Request) => {
    const businessId = req.apiKey!.businessId;
    const row = await ctx.google.connections.get(businessId);
    return ctx.google.describe(businessId, await ctx.googleSync.nextRunAt(row));
  };

  router.get(path, requireScope(ctx, read), async (req, res) => {
    res.json(ok(await describe(req)));
  });

  router.put(path, originRule(ctx), requireScope(ctx, write), ...jsonBody(), async (req, res) => {
    const parsed = googleConnectBodySchema.safeParse(req.body);
    if (!parsed.success) throw AppError.validation(parsed.error);
    const key = req.apiKey!;
    await connectGoogle(ctx.google, ctx.googleSync, key.businessId, parsed.data, ctx.now());
    ctx.logger.info({ reqId: req.id, business: key.business.slug }, 'Google location connected');
    res.json(ok(await describe(req)));
  });

  router.delete(path, originRule(ctx), requireScope(ctx, write), async (req, res) => {
    const key = req.apiKey!;
    if (await ctx.google.connections.disconnect(key.businessId))
      ctx.logger.info({ reqId: req.id, business: key.business.slug }, 'Google location disconnected');
    res.json(ok(await describe(req)));
  });

  router.all(path, methodNotAllowed(['GET', 'PUT', 'DELETE']));
  return router;
}
