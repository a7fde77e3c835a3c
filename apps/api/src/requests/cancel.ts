import { AppError } from '@review-desk/server/errors';
import { ok, REQUEST_ENDPOINTS, REQUEST_ID_PATTERN } from '@review-desk/shared';
import type { RequestHandler } from 'express';
import type { AppContext } from '../context.ts';
import { requestRecord } from './read-routes.ts';

// DELETE /api/v1/requests/{id} (docs/api.md, "Sending later"): a request still held for its time
// or the sending hours is cancelled and never leaves; one already being sent or gone answers 409
// request_not_held, another business's 404. The answer is the request as it reads back now.

export function cancelHeldRequest(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const id = req.params.id as string;
    const businessId = req.apiKey!.businessId;
    const outcome = REQUEST_ID_PATTERN.test(id)
      ? await ctx.sends.cancel(businessId, id, ctx.now())
      : 'unknown';
    if (outcome === 'unknown') throw new AppError('not_found', 'No request with this id.');
    if (outcome === 'not_held') throw new AppError('request_not_held');
    ctx.logger.info({ reqId: req.id, requestId: id }, 'held request cancelled');
    const delivery = await ctx.tracker.store();
    const row = (await delivery.request(businessId, id))!;
    res.json(ok(await requestRecord(ctx, row, await delivery.legs(id))));
  };
}

export const CANCEL = REQUEST_ENDPOINTS.cancel;
