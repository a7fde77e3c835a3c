import { AppError } from '@review-desk/server/errors';
import { hideReviewBodySchema, ok, WIDGET_ENDPOINTS, widgetUpdateSchema } from '@review-desk/shared';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { jsonBody, methodNotAllowed, originRule, requireScope } from '../http/index.ts';
import { hideReview, ownerView, showReview, switchWidget } from './owner.ts';

// The owner's calls, an extension of the API like settings (docs/widget.md, "The owner's side"):
// GET/PUT /api/v1/widget (`widget:read`, `widget:write`) read and switch the business's widget;
// PUT/DELETE /api/v1/widget/hidden/{review id} (`widget:write`) hide a review for a content
// reason and show it again. Writes pass the Origin rule like a POST. Each answers the widget as
// its owner sees it after the change.

export function widgetOwnerRoutes(ctx: AppContext): Router {
  const router = Router();
  const { read, write, hide, show } = WIDGET_ENDPOINTS;
  const business = (req: { apiKey?: { businessId: number } }) => req.apiKey!.businessId;

  router.get(read.path, requireScope(ctx, read.scope), async (req, res) => {
    res.json(ok(await ownerView(ctx, business(req))));
  });

  router.put(write.path, originRule(ctx), requireScope(ctx, write.scope), ...jsonBody(), async (req, res) => {
    const parsed = widgetUpdateSchema.safeParse(req.body);
    if (!parsed.success) throw AppError.validation(parsed.error);
    const answer = await switchWidget(ctx, business(req), parsed.data.enabled);
    ctx.logger.info(
      { reqId: req.id, business: req.apiKey!.business.slug, enabled: parsed.data.enabled },
      'website widget switched',
    );
    res.json(ok(answer));
  });

  router.put(hide.path, originRule(ctx), requireScope(ctx, hide.scope), ...jsonBody(), async (req, res) => {
    const parsed = hideReviewBodySchema.safeParse(req.body);
    if (!parsed.success) throw AppError.validation(parsed.error);
    const id = String(req.params.id);
    const answer = await hideReview(ctx, business(req), id, parsed.data.reason);
    ctx.logger.info(
      { reqId: req.id, business: req.apiKey!.business.slug, review: id, reason: parsed.data.reason },
      'review hidden from the website',
    );
    res.json(ok(answer));
  });

  router.delete(show.path, originRule(ctx), requireScope(ctx, show.scope), async (req, res) => {
    const id = String(req.params.id);
    const answer = await showReview(ctx, business(req), id);
    ctx.logger.info({ reqId: req.id, business: req.apiKey!.business.slug, review: id }, 'review shown again');
    res.json(ok(answer));
  });

  router.all(read.path, methodNotAllowed([read.method, write.method]));
  router.all(hide.path, methodNotAllowed([hide.method, show.method]));
  return router;
}
