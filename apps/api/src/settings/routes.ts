import { ok, SETTINGS_ENDPOINTS, SETTINGS_TEST_ENDPOINT } from '@review-desk/shared';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { jsonBody, methodNotAllowed, originRule, requireScope } from '../http/index.ts';

// GET/PUT /api/v1/settings, an extension of the API (docs/settings.md): the business of the key
// reads and changes its own settings. A PUT changes state: it passes the Origin rule like a POST.

export function settingsRoutes(ctx: AppContext): Router {
  const router = Router();
  const { read, write } = SETTINGS_ENDPOINTS;

  router.get(read.path, requireScope(ctx, read.scope), async (req, res) => {
    res.json(ok(await ctx.settings.answer(req.apiKey!.businessId)));
  });

  router.put(write.path, originRule(ctx), requireScope(ctx, write.scope), ...jsonBody(), async (req, res) => {
    const answer = await ctx.settings.update(req.apiKey!.businessId, req.body);
    ctx.logger.info(
      { reqId: req.id, business: req.apiKey!.business.slug, fields: Object.keys(req.body ?? {}) },
      'settings changed',
    );
    res.json(ok(answer));
  });

  // "Send me a test": the words on the owner's screen, once, to the owner's phone or email.
  const test = SETTINGS_TEST_ENDPOINT;
  router.post(test.path, originRule(ctx), requireScope(ctx, test.scope), ...jsonBody(), async (req, res) => {
    const result = await ctx.settings.sendTest(req.apiKey!.businessId, req.body, ctx.delivery);
    ctx.logger.info(
      { reqId: req.id, business: req.apiKey!.business.slug, channel: result.channel, status: result.status },
      'settings test sent',
    );
    res.json(ok(result));
  });

  router.all(read.path, methodNotAllowed([read.method, write.method]));
  router.all(test.path, methodNotAllowed([test.method]));
  return router;
}
