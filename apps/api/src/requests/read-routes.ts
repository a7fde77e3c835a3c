import { AppError } from '@review-desk/server/errors';
import {
  ok,
  REQUEST_ENDPOINTS,
  REQUEST_ID_PATTERN,
  type RequestRecord,
  requestsQuerySchema,
} from '@review-desk/shared';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import type { DeliveryRequestRow, LegRow } from '../delivery/store.ts';
import { methodNotAllowed, queryOf, requireScope } from '../http/index.ts';
import type { OriginRow } from './origins.ts';
import { toRequestRecord } from './record-view.ts';

// GET /api/v1/requests and GET /api/v1/requests/{id}: what happened to each request and its
// messages (an extension of the API, docs/api.md "Reading requests back"). A key with
// review_requests:read may read them, and so may a key that sends them (review_requests:write).

/** `known`: the origin read with the page's others (a list), or looked up here (undefined). */
export async function requestRecord(
  ctx: AppContext,
  row: DeliveryRequestRow,
  legs: LegRow[],
  known?: OriginRow | null,
): Promise<RequestRecord> {
  const [journey, origin] = await Promise.all([
    ctx.store.requests.byPublicId(row.request_id),
    known === undefined ? ctx.store.origins.byRequest(row.request_id) : known,
  ]);
  return toRequestRecord(row, legs, journey, origin);
}

export function requestsRoutes(ctx: AppContext): Router {
  const router = Router();
  const scope = requireScope(ctx, 'review_requests:read', ['review_requests:write']);

  router.get(REQUEST_ENDPOINTS.list.path, scope, async (req, res) => {
    const parsed = requestsQuerySchema.safeParse(queryOf(req));
    if (!parsed.success) throw AppError.validation(parsed.error);
    const delivery = await ctx.tracker.store();
    const businessId = req.apiKey!.businessId;
    const { total, rows } = await delivery.list(businessId, parsed.data);
    const ids = rows.map((r) => r.request_id);
    const [legs, origins] = await Promise.all([delivery.legsFor(ids), ctx.store.origins.forRequests(ids)]);
    res.json(
      ok({
        page: parsed.data.page,
        limit: parsed.data.limit,
        total,
        requests: await Promise.all(
          rows.map((row) =>
            requestRecord(ctx, row, legs.get(row.request_id) ?? [], origins.get(row.request_id) ?? null),
          ),
        ),
      }),
    );
  });

  router.get(REQUEST_ENDPOINTS.one.path, scope, async (req, res) => {
    const id = req.params.id as string;
    const delivery = await ctx.tracker.store();
    const row = REQUEST_ID_PATTERN.test(id) ? await delivery.request(req.apiKey!.businessId, id) : undefined;
    // Another business's request reads as no request at all.
    if (!row) throw new AppError('not_found', 'No request with this id.');
    res.json(ok(await requestRecord(ctx, row, await delivery.legs(id))));
  });

  router.all(REQUEST_ENDPOINTS.list.path, methodNotAllowed(['GET']));
  router.all(REQUEST_ENDPOINTS.one.path, methodNotAllowed(['GET', 'DELETE']));
  return router;
}
