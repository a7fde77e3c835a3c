import { AppError } from '@review-desk/server/errors';
import { ENDPOINTS, ok, reviewsQuerySchema } from '@review-desk/shared';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { methodNotAllowed, queryOf, requireScope } from '../http/index.ts';
import { listReviews } from './list.ts';

// GET /api/v1/reviews (docs/api.md): the query validated with the shared schema (400 names every
// offending parameter), then a page of the business's reviews.

export function reviewsRoutes(ctx: AppContext): Router {
  const router = Router();
  router.get(ENDPOINTS.reviews.path, requireScope(ctx, ENDPOINTS.reviews.scope), async (req, res) => {
    const parsed = reviewsQuerySchema.safeParse(queryOf(req));
    if (!parsed.success) throw AppError.validation(parsed.error);
    res.json(ok(await listReviews(ctx.store, req.apiKey!.businessId, parsed.data)));
  });
  router.all(ENDPOINTS.reviews.path, methodNotAllowed([ENDPOINTS.reviews.method]));
  return router;
}
