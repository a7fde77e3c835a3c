import { isoTime } from '@review-desk/server/db/rows';
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

// GET /api/v1/requests and GET /api/v1/requests/{id}: what happened to each request and its
// messages (an extension of the API, docs/api.md "Reading requests back"). A key with
// review_requests:read may read them, and so may a key that sends them (review_requests:write).

export async function requestRecord(
  ctx: AppContext,
  row: DeliveryRequestRow,
  legs: LegRow[],
): Promise<RequestRecord> {
  const journey = await ctx.store.requests.byPublicId(row.request_id);
  return {
    id: row.request_id,
    channel: row.channel,
    status: row.status,
    createdAt: isoTime(row.created_at),
    scheduledFor: isoTime(row.scheduled_for),
    clicked: journey?.clicked_at != null,
    completed: journey?.completed_at != null,
    optedOut: journey?.opted_out_at != null,
    legs: legs.map((leg) => ({
      channel: leg.channel,
      kind: leg.kind,
      provider: leg.provider,
      state: leg.state,
      error: leg.error,
      updatedAt: isoTime(leg.updated_at),
    })),
  };
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
    const legs = await delivery.legsFor(rows.map((r) => r.request_id));
    res.json(
      ok({
        page: parsed.data.page,
        limit: parsed.data.limit,
        total,
        requests: await Promise.all(
          rows.map((row) => requestRecord(ctx, row, legs.get(row.request_id) ?? [])),
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
  router.all(REQUEST_ENDPOINTS.one.path, methodNotAllowed(['GET']));
  return router;
}
