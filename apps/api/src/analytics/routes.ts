import { AppError } from '@review-desk/server/errors';
import { analyticsQuerySchema, DAY_MS, ENDPOINTS, ok } from '@review-desk/shared';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { methodNotAllowed, queryOf, requireScope } from '../http/index.ts';
import { computeAnalytics } from './compute.ts';

// GET /api/v1/analytics (docs/api.md): the query validated with the shared schema, then the
// business's figures over the window, reminders and the median time to first reply included.

export function analyticsRoutes(ctx: AppContext): Router {
  const router = Router();
  router.get(ENDPOINTS.analytics.path, requireScope(ctx, ENDPOINTS.analytics.scope), async (req, res) => {
    const parsed = analyticsQuerySchema.safeParse(queryOf(req));
    if (!parsed.success) throw AppError.validation(parsed.error);
    const businessId = req.apiKey!.businessId;
    const now = ctx.now();
    // The window's first UTC midnight, as the figures count it.
    const since = (Math.floor(now / DAY_MS) - parsed.data.days + 1) * DAY_MS;
    const [analytics, reminders, first] = await Promise.all([
      computeAnalytics(ctx.store, businessId, parsed.data.days, now),
      ctx.reminders.analytics(businessId, since),
      ctx.store.replies.firstReplyTimes(businessId, since),
    ]);
    const replies = {
      firstReplies: first.n,
      medianFirstReplySeconds: first.medianMs === null ? null : Math.round(first.medianMs / 1000),
    };
    res.json(ok({ ...analytics, reminders, replies }));
  });
  router.all(ENDPOINTS.analytics.path, methodNotAllowed([ENDPOINTS.analytics.method]));
  return router;
}
